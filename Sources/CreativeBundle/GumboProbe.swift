import CGumboProbe
#if canImport(Glibc)
import Glibc
#endif

/// gumbo run on HTML in a child process before it runs on it here. Debian's gumbo 0.10.1 is
/// built with its assertions, and some malformed HTML fails one (`<table><svg><title>` and a
/// CDATA section): `abort` would take the whole process down, the service with it. A child
/// (fork, limits, wait: `cgumbo_probe` in C) parses the documents, reads their tag names as
/// ``HTMLDocument`` does and exits; a document is parsed in this process only when the child
/// got through it, and gumbo, deterministic, does the same here. A document a child ended on
/// (by a signal, over its 256 MiB, 2 s of CPU or 4 s of time), or one no child could be
/// started for, is rejected (`unparseable_html`).
///
/// The documents of a bundle go to one child together (a new child goes on after a document
/// that ended one): a probe costs a fork and the child's exit, which grow with the memory the
/// process has written (on the 2-core development machine about 1 ms for the CLI, 32 MB
/// resident, and 4 to 5 ms for a 200 MB process; docs/bundles.md), and each document's parse.
enum GumboProbe {
    /// Parses `documents` (each as ``HTMLDocument`` passes it to gumbo) in child processes.
    /// - Returns: for each document, nil when a child parsed it, else why it is rejected.
    /// - Throws: ``HTMLRefusal/expired`` once `isExpired` answers true (asked every 10 ms once a
    ///   child has run 1 s, and before each child after a document that ended one; the child
    ///   is then killed).
    static func check(_ documents: [[UInt8]], isExpired: () -> Bool) throws(HTMLRefusal)
        -> [(cause: String, advice: String)?] {
        guard !documents.isEmpty else { return [] }
        // Each document followed by a NUL, as it is parsed in this process.
        var text: [UInt8] = []
        text.reserveCapacity(documents.reduce(documents.count) { $0 + $1.count })
        for document in documents {
            text += document
            text.append(0)
        }
        let lengths = documents.map(\.count)
        // Not parsed until the C side says so (a zeroed result would read as parsed).
        var results = [cgumbo_probe_result](repeating: cgumbo_probe_result(status: CGUMBO_PROBE_FAILED, detail: 0),
                                            count: documents.count)
        let stopped = withoutActuallyEscaping(isExpired) { isExpired in
            var asked = isExpired
            return withUnsafeMutablePointer(to: &asked) { asked in
                text.withUnsafeBytes { text in
                    lengths.withUnsafeBufferPointer { lengths in
                        results.withUnsafeMutableBufferPointer { results in
                            cgumbo_probe(text.baseAddress?.assumingMemoryBound(to: CChar.self), lengths.baseAddress,
                                         documents.count, results.baseAddress, { context in
                                guard let context else { return 0 }
                                return context.assumingMemoryBound(to: (() -> Bool).self).pointee() ? 1 : 0
                            }, asked)
                        }
                    }
                }
            }
        }
        if stopped != 0 { throw .expired }
        return results.map(reason)
    }

    /// Why a document is rejected (what the end of the child that was parsing it says of it,
    /// and what to do), or nil when a child parsed it.
    static func reason(_ result: cgumbo_probe_result) -> (cause: String, advice: String)? {
        let fixMarkup = "fix its markup: an HTML validator shows its errors (misnested <table>, <svg> and <select> "
            + "elements and CDATA sections are known causes)"
        switch result.status {
        case CGUMBO_PROBE_PARSED:
            return nil
        case CGUMBO_PROBE_SIGNALLED:
            switch result.detail {
            case SIGABRT:
                return ("makes the HTML parser abort (it fails one of the parser's internal checks)", fixMarkup)
            case SIGXCPU:
                return ("takes the HTML parser more than \(CGUMBO_PROBE_CPU_SECONDS) s of CPU",
                        "simplify it, and \(fixMarkup)")
            case SIGALRM:
                return ("keeps the HTML parser running more than \(CGUMBO_PROBE_WALL_SECONDS) s", "try again, or simplify it")
            case SIGKILL:
                return ("lost the HTML parser's process, killed by the system (short of memory?)", "try again")
            default:
                return ("makes the HTML parser crash (signal \(result.detail))", fixMarkup)
            }
        case CGUMBO_PROBE_EXITED where result.detail == CGUMBO_PROBE_EXIT_NO_MEMORY:
            return ("makes the HTML parser use more than \(CGUMBO_PROBE_MEMORY_BYTES >> 20) MiB of memory", "simplify it")
        case CGUMBO_PROBE_EXITED:
            return ("makes the HTML parser exit with status \(result.detail)", fixMarkup)
        default:
            return ("could not be given to the HTML parser: no child process could be started for it "
                    + "(\(String(cString: strerror(result.detail))))", "try again")
        }
    }
}
