import Foundation
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

    static let pngSuite = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/pngsuite")

    @discardableResult
    static func run(_ arguments: [String], stdin: [UInt8]? = nil, in directory: URL? = nil) throws -> ToolRun {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
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
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return ToolRun(status: process.terminationStatus, stdout: [UInt8](outData),
                       stderr: String(decoding: errBox.data, as: UTF8.self))
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
