import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `creative-tool` binary as a user would.
struct ToolRun {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

enum Tool {
    /// The binary beside the test bundle (`swift build` puts both in the same folder).
    static let binary: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("creative-tool")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The committed 960x150 test artwork, a valid creative.
    static let artwork960x150 = packageRoot.appendingPathComponent("TestImages/test-artwork-960x150.png")

    static let pngSuite = packageRoot.appendingPathComponent("Tests/Corpus/pngsuite")

    /// Runs the tool with `arguments`. `stdout`, when given, receives standard output instead of
    /// a pipe (then `ToolRun.stdout` is empty). A run still going after `timeout` seconds is
    /// killed and reported with status -1, so a regression that blocks fails instead of hanging.
    @discardableResult
    static func run(_ arguments: [String], stdin: [UInt8]? = nil, in directory: URL? = nil,
                    stdout: FileHandle? = nil, executable: URL? = nil, timeout: Double = 120) throws -> ToolRun {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let watchdog = Watchdog()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if watchdog.arm() { kill(pid, SIGKILL) }
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a big output cannot fill a pipe and stall.
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async {
            errBox.data = errHandle.readDataToEndOfFile()
            group.leave()
        }
        let outData = stdout == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        group.wait()
        let timedOut = !watchdog.disarm()
        return ToolRun(status: timedOut ? -1 : process.terminationStatus, stdout: [UInt8](outData),
                       stderr: String(decoding: errBox.data, as: UTF8.self))
    }

    /// Runs the tool through `/bin/sh -c script`, the binary as `$0`: for arguments that are
    /// not UTF-8 (written with printf octal escapes), which `Process` cannot pass.
    static func runShell(_ script: String, in directory: URL) throws -> ToolRun {
        try run(["-c", script, binary.path], in: directory, executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// A fresh empty folder for one test.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("creative-tool-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Peak resident memory of one run of the tool, in bytes. A small Python parent runs it and
    /// reads its own children's rusage, so no other child of the test process is counted.
    static func peakMemory(of arguments: [String], in directory: URL) throws -> Int {
        let script = "import resource, subprocess, sys; "
            + "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, binary.path] + arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let kibibytes = Int(text) else { throw CocoaError(.fileReadCorruptFile) }
        return kibibytes * 1024
    }
}

/// Holds bytes read on another thread; the group's wait orders the accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Decides once, under a lock, whether a run ended first or its timeout fired first.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var decided = false
    private var fired = false

    /// The timeout: true when the run has not ended yet (and it is to be killed).
    func arm() -> Bool {
        lock.withLock {
            guard !decided else { return false }
            decided = true
            fired = true
            return true
        }
    }

    /// The run ended: true unless the timeout fired first.
    func disarm() -> Bool {
        lock.withLock {
            if !decided { decided = true }
            return !fired
        }
    }
}

/// A test case with a fresh empty folder for each test (`folder`), removed afterwards.
class ScratchFolderTestCase: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws { folder = try Tool.scratch() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }
}
