import CreativeCore
import CreativeImaging
import CreativeTestSupport
@testable import CreativeImaging
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `creative-tool process` and `guidance` through the built binary: the renders agree with
/// guidance and `select`, the manifest tells the truth, the folder appears whole or not at all.
final class ProcessCommandTests: ScratchFolderTestCase {
    private let artworks = ["960x150", "1320x204", "2184x270"]

    private func artwork(_ size: String) -> String {
        Tool.packageRoot.appendingPathComponent("TestImages/test-artwork-\(size).png").path
    }

    private func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    private func manifest(in directory: URL) throws -> [String: Any] {
        try json([UInt8](Data(contentsOf: directory.appendingPathComponent("manifest.json"))))
    }

    private func names(in directory: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    private func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    private func size(_ text: String?) -> PixelSize? { text.flatMap { try? PixelSize(parsing: $0) } }

    /// SHA-256 of files, computed by coreutils (independent of the tool's GLib checksum).
    private func sha256(_ files: [URL]) throws -> [String: String] {
        guard !files.isEmpty else { return [:] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = files.map(\.path)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        var sums: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            sums[URL(fileURLWithPath: String(parts[1].drop { $0 == " " || $0 == "*" })).lastPathComponent] = String(parts[0])
        }
        return sums
    }

    /// Asserts a folder is a complete valid job: exactly the manifest, the renders and the preview
    /// it lists, each with the stated bytes, SHA-256 and pixel size. Returns the manifest.
    @discardableResult
    private func assertComplete(_ directory: URL, decode: Bool = true,
                                file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let manifest = try manifest(in: directory)
        let report = try XCTUnwrap(manifest["report"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(report["valid"] as? Bool, true, file: file, line: line)
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]], file: file, line: line)
        let preview = try XCTUnwrap(manifest["preview"] as? [String: Any], file: file, line: line)
        let page = try XCTUnwrap(preview["page"] as? [String: Any], file: file, line: line)
        let listed = renders + [preview, page]
        let fileNames = try listed.map { try XCTUnwrap($0["file"] as? String, file: file, line: line) }
        XCTAssertEqual(names(in: directory), Set(fileNames + ["manifest.json"]), "nothing more, nothing less",
                       file: file, line: line)
        XCTAssertEqual(Set(fileNames).count, fileNames.count, "file names are distinct", file: file, line: line)
        let sums = try sha256(fileNames.map { directory.appendingPathComponent($0) })
        for entry in listed {
            let name = entry["file"] as? String ?? ""
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            XCTAssertEqual(entry["file_bytes"] as? Int, bytes.count, name, file: file, line: line)
            XCTAssertEqual(entry["sha256"] as? String, sums[name], name, file: file, line: line)
            if decode, let pixels = entry.sizeText("slot_pixels") {
                XCTAssertEqual(try ImageSource(bytes: bytes).header.size, size(pixels), name, file: file, line: line)
            }
        }
        return manifest
    }

    /// The anchored slots of `guidance --format json`, from the binary.
    private func guidanceSlots() throws -> [[String: Any]] {
        let run = try Tool.run(["guidance", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let anchored = try XCTUnwrap(try json(run.stdout)["anchored"] as? [String: Any])
        return try XCTUnwrap(anchored["slots"] as? [[String: Any]])
    }

    private func key(_ object: [String: Any]) -> String {
        "\(object["device"] as? String ?? "?")/\(object["orientation"] as? String ?? "?")"
    }

    /// First and last index whose alpha is not zero, along a line of alphas.
    private func opaqueRun(_ alphas: [UInt8]) -> (start: Int, length: Int)? {
        guard let first = alphas.firstIndex(where: { $0 > 0 }), let last = alphas.lastIndex(where: { $0 > 0 }) else {
            return nil
        }
        return (first, last - first + 1)
    }

    // MARK: Agreement with guidance and select

    /// Each Retina size processed in the campaign of the three (`--with` the two others) renders
    /// exactly the slots guidance and `select` give it among them.
    func testEachArtworkRendersExactlyTheSlotsGuidanceAndSelectGiveIt() throws {
        let slots = try guidanceSlots()
        XCTAssertEqual(slots.count, 28)
        // What `select` picks for each slot's pixels, asked once per distinct size.
        var picks: [String: String] = [:]
        for pixels in Set(slots.compactMap { $0.sizeText("slot_pixels") }) {
            let request = try XCTUnwrap(size(pixels))
            let run = try Tool.run(["select", "--json", "--width", "\(request.width)", "--height", "\(request.height)",
                                    "960x150", "1320x204", "2184x270"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let winner = try XCTUnwrap(try json(run.stdout)["winner"] as? [String: Any])
            picks[pixels] = try XCTUnwrap(winner.sizeText("size_pixels"))
        }
        let guidanceByKey = Dictionary(uniqueKeysWithValues: slots.map { (key($0), $0) })
        var rendered = 0
        for name in artworks {
            let out = folder.appendingPathComponent("out-\(name)")
            let others = artworks.filter { $0 != name }.joined(separator: ",")
            let run = try Tool.run(["process", artwork(name), "--with", others, "--output-dir", out.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stderr, "")
            let manifest = try assertComplete(out)
            let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            let renderedKeys = Set(renders.map(key))
            XCTAssertEqual(renderedKeys.count, renders.count, "one render per slot")
            XCTAssertEqual(renderedKeys, Set(slots.filter { $0.sizeText("artwork_pixels") == name }.map(key)),
                           "\(name): rendered where guidance names it")
            XCTAssertEqual(renderedKeys, Set(slots.filter { picks[$0.sizeText("slot_pixels") ?? ""] == name }.map(key)),
                           "\(name): rendered where select picks it")
            XCTAssertFalse(renders.isEmpty, name)
            rendered += renders.count
            for render in renders {
                let label = "\(name) in \(key(render))"
                let slot = try XCTUnwrap(guidanceByKey[key(render)], label)
                XCTAssertEqual(render["slot_mode"] as? String, "anchored", label)
                XCTAssertEqual(render.sizeText("slot_pixels"), slot.sizeText("slot_pixels"), label)
                XCTAssertEqual(render.sizeText("slot_points"), slot.sizeText("slot_points"), label)
                XCTAssertEqual(render.sizeText("content_pixels"), slot.sizeText("content_pixels"), label)
                let stated = try XCTUnwrap(render["fill_share"] as? Double, label)
                XCTAssertEqual(stated, try XCTUnwrap(slot["fill_share"] as? Double), accuracy: 1e-9, label)
                // The pixels: transparent letterbox, opaque artwork. The middle row and column
                // give the content rectangle.
                let file = try XCTUnwrap(render["file"] as? String, label)
                let pixels = try PixelReader(encoded: [UInt8](Data(contentsOf: out.appendingPathComponent(file))))
                XCTAssertEqual(pixels.bands, 4, label)
                let row = (0..<pixels.width).map { pixels[$0, pixels.height / 2][3] }
                let column = (0..<pixels.height).map { pixels[pixels.width / 2, $0][3] }
                let across = try XCTUnwrap(opaqueRun(row), label)
                let down = try XCTUnwrap(opaqueRun(column), label)
                XCTAssertTrue(row[across.start..<across.start + across.length].allSatisfy { $0 == 255 }, label)
                XCTAssertTrue(column[down.start..<down.start + down.length].allSatisfy { $0 == 255 }, label)
                let measured = Double(across.length * down.length) / Double(pixels.width * pixels.height)
                XCTAssertEqual(measured, stated, accuracy: 0.01, label)
                XCTAssertEqual("\(across.length)x\(down.length)", render.sizeText("content_pixels"), label)
                XCTAssertEqual(across.start, slot.position("content_position_pixels")?[0], label)
                XCTAssertEqual(down.start, slot.position("content_position_pixels")?[1], label)
            }
            // The preview sheet: a real, wide picture.
            let previewPath = out.appendingPathComponent("preview.png").path
            let preview = try ImageSource(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: previewPath))))
            XCTAssertEqual(preview.format, .png)
            XCTAssertGreaterThan(preview.header.width, 800, name)
            XCTAssertGreaterThan(preview.header.height, 28 * 15, "a row per device slot")
            // Decoded whole and strictly, in a child: its only fault is not being a banner size.
            // (Decoding it here would raise this test process's peak memory, which every later
            // child inherits in its ru_maxrss and RenderCommandTests bounds.)
            let check = try Tool.run(["validate", "--json", previewPath])
            let errors = (try json(check.stdout)["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            XCTAssertEqual(errors, ["dimensions_not_allowed"], name)
        }
        XCTAssertEqual(rendered, 28, "the three Retina sizes cover every anchored slot once")
    }

    // MARK: Rejected and missing inputs

    private func assertRejected(_ input: String, code: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = folder.appendingPathComponent("rejected")
        let run = try Tool.run(["process", input, "--output-dir", out.path])
        XCTAssertEqual(run.status, 1, run.stderr, file: file, line: line)
        XCTAssertEqual(names(in: out), ["manifest.json"], file: file, line: line)
        let manifest = try manifest(in: out)
        let report = try XCTUnwrap(manifest["report"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(report["valid"] as? Bool, false, file: file, line: line)
        XCTAssertEqual(report["file"] as? String, input, file: file, line: line)
        let codes = (report["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        XCTAssertTrue(codes.contains(code), "\(codes)", file: file, line: line)
        XCTAssertEqual((manifest["renders"] as? [Any])?.count, 0, file: file, line: line)
        XCTAssertTrue(manifest["preview"] is NSNull, file: file, line: line)
        XCTAssertEqual(names(in: folder).filter { $0.hasPrefix(".") }, [], "no hidden leftovers", file: file, line: line)
    }

    func testInvalidInputLeavesOnlyTheManifestWithTheReport() throws {
        try assertRejected(Tool.pngSuite.appendingPathComponent("basn2c08.png").path, code: "dimensions_not_allowed")
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a picture\n".utf8).write(to: text)
        try assertRejected(text.path, code: "not_an_image")
        try assertRejected(Tool.pngSuite.appendingPathComponent("xcsn0g01.png").path, code: "corrupt_image")
        try assertRejected(Tool.pngSuite.appendingPathComponent("xcrn0g04.png").path, code: "not_an_image")
    }

    /// A mistyped path is no creative: exit 1 with its code, and no folder made. A folder is a
    /// campaign; one that holds no image files is a usage error, and nothing is made either.
    func testUnreadableInputCreatesNothing() throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("adir"), withIntermediateDirectories: true)
        let missing = try Tool.run(["process", "missing.png", "--output-dir", "job/a/b"], in: folder)
        XCTAssertEqual(missing.status, 74, missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.hasPrefix("creative-tool process: file_not_found: missing.png"), missing.stderr)
        XCTAssertEqual(missing.text, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("job").path))
        let empty = try Tool.run(["process", "adir", "--output-dir", "job/a/b"], in: folder)
        XCTAssertEqual(empty.status, 64, empty.stderr)
        XCTAssertTrue(empty.stderr.hasPrefix("creative-tool process: adir: the folder holds no image files"), empty.stderr)
        XCTAssertEqual(empty.text, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("job").path))
    }

    func testRejectedRunReplacesAnEarlierValidFolder() throws {
        let out = folder.appendingPathComponent("out")
        XCTAssertEqual(try Tool.run(["process", artwork("960x150"), "--output-dir", out.path]).status, 0)
        XCTAssertTrue(names(in: out).contains("preview.png"))
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("not a picture\n".utf8).write(to: notes)
        let run = try Tool.run(["process", notes.path, "--output-dir", out.path, "--json"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(names(in: out), ["manifest.json"])
        XCTAssertEqual(run.stdout, try [UInt8](Data(contentsOf: out.appendingPathComponent("manifest.json"))))
        XCTAssertEqual(names(in: folder), ["notes.txt", "out"])
    }

    // MARK: Replacing, stale leftovers, kills

    /// The id of a process that has ended (and been reaped).
    private func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    func testRerunReplacesTheFolderAndRemovesStaleLeftovers() throws {
        let out = folder.appendingPathComponent("out")
        XCTAssertEqual(try Tool.run(["process", artwork("960x150"), "--output-dir", out.path]).status, 0)
        try Data("stale".utf8).write(to: out.appendingPathComponent("old.txt"))
        // Leftovers of a killed run, and the folder of a run still going (this test process).
        let dead = try deadPID()
        for leftover in [".out.partial-\(dead)", ".out.old-\(dead)", ".out.partial-\(getpid())"] {
            let url = folder.appendingPathComponent(leftover)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url.appendingPathComponent("iphone-se-portrait-320x50@2x.png"))
        }
        // A file process did not write: the folder is not replaced, the file stays.
        let refused = try Tool.run(["process", artwork("1320x204"), "--output-dir", out.path + "/"])
        XCTAssertEqual(refused.status, 74, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("output_dir_not_ours") && refused.stderr.contains("old.txt"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("old.txt")), Data("stale".utf8))
        try FileManager.default.removeItem(at: out.appendingPathComponent("old.txt"))
        let run = try Tool.run(["process", artwork("1320x204"), "--output-dir", out.path + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try assertComplete(out, decode: false)
        XCTAssertEqual((manifest["report"] as? [String: Any])?.sizeText("size_pixels"), "1320x204")
        XCTAssertEqual(names(in: folder), ["out", ".out.partial-\(getpid())"],
                       "dead runs' leftovers removed; a live run's folder left alone")
    }

    /// Starts `process` into `out` and kills it with SIGKILL: after `delay` seconds, or when
    /// `whenWriting`, that many seconds after its hidden partial folder appears (the write phase,
    /// a few milliseconds at the end of the run). Returns whether the kill landed before the end.
    private func killedRun(_ source: String, into out: URL, delay: Double, whenWriting: Bool) throws -> Bool {
        let process = Process()
        process.executableURL = Tool.binary
        process.arguments = ["process", source, "--output-dir", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        if whenWriting {
            let partial = out.deletingLastPathComponent()
                .appendingPathComponent(".\(out.lastPathComponent).partial-\(process.processIdentifier)").path
            let deadline = Date().addingTimeInterval(20)
            while access(partial, F_OK) != 0 && process.isRunning && Date() < deadline { usleep(100) }
        }
        usleep(useconds_t(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    func testKilledRunLeavesNoHalfFolder() throws {
        let out = folder.appendingPathComponent("out")
        let source = artwork("2184x270")  // the most renders: the longest write
        let reference = folder.appendingPathComponent("reference")
        XCTAssertEqual(try Tool.run(["process", source, "--output-dir", reference.path]).status, 0)
        try assertComplete(reference, decode: false)
        let kills: [(delay: Double, whenWriting: Bool)] = [0.005, 0.02, 0.05, 0.1, 0.2].map { ($0, false) }
            + [0, 0.002, 0.005, 0.01].map { ($0, true) }
        var outcomes: [String] = []
        for (attempt, plan) in kills.enumerated() {
            // Alternately a first run and a run replacing a complete folder.
            try? FileManager.default.removeItem(at: out)
            if attempt % 2 == 1 { try FileManager.default.copyItem(at: reference, to: out) }
            let replacing = exists(out)
            let killed = try killedRun(source, into: out, delay: plan.delay, whenWriting: plan.whenWriting)
            let leftovers = names(in: folder).filter { $0.hasPrefix(".") }
            outcomes.append("\(plan.whenWriting ? "writing + " : "")\(plan.delay * 1000) ms\(replacing ? " (replacing)" : ""): "
                            + "\(killed ? "killed" : "finished"), \(exists(out) ? "folder" : "no folder"), "
                            + "\(leftovers.count) hidden")
            // Whole or absent; a leftover is hidden and named after the folder (earlier ones
            // are removed by the next run that reaches its write).
            if exists(out) { try assertComplete(out, decode: false) }
            // Replacing is one atomic exchange: the folder is never missing, old or new.
            if replacing { XCTAssertTrue(exists(out), "the replaced folder vanished") }
            XCTAssertTrue(leftovers.allSatisfy { $0.hasPrefix(".out.partial-") || $0.hasPrefix(".out.old-") },
                          "\(leftovers)")
        }
        XCTAssertTrue(outcomes.contains { $0.contains("writing") && $0.contains("1 hidden") },
                      "some kill landed while files were written: \(outcomes)")
        // The next run cleans up after the killed ones.
        let rerun = try Tool.run(["process", source, "--output-dir", out.path])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        try assertComplete(out, decode: false)
        XCTAssertEqual(names(in: folder), ["out", "reference"], "no partial or old siblings after a good run")
        print("kills: " + outcomes.joined(separator: "; "))
    }

    /// Starts `arguments` with posix_spawn (never reaped by Foundation: the caller decides when
    /// it is waited for) and returns its PID.
    private func spawnUnreaped(_ arguments: [String]) throws -> pid_t {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard status == 0 else { throw NSError(domain: "posix_spawn", code: Int(status)) }
        return pid
    }

    // Hostile input 5, item 9. A run SIGKILLed by a parent that had not reaped it yet (a zombie
    // keeps its PID taken) left its partial folder for good; so did one whose PID another
    // process got since. The next run of the same folder removes both, and nothing else.
    func testNextRunRemovesPartialsOfKilledRuns() throws {
        let out = folder.appendingPathComponent("out")
        let killed = try spawnUnreaped([Tool.binary.path, "process", artwork("2184x270"), "--output-dir", out.path])
        let killedPartial = ".out.partial-\(killed)"
        let deadline = Date().addingTimeInterval(30)
        while !names(in: folder).contains(killedPartial) && Date() < deadline { usleep(1000) }
        kill(killed, SIGKILL)
        var reaped = false
        defer { if !reaped { waitpid(killed, nil, 0) } }
        XCTAssertTrue(names(in: folder).contains(killedPartial), "the killed run had begun its folder")
        // A leftover named after a PID a later process has now: its last write is older than that process.
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer { sleeper.terminate(); sleeper.waitUntilExit() }
        let reused = folder.appendingPathComponent(".out.partial-\(sleeper.processIdentifier)")
        try FileManager.default.createDirectory(at: reused, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: reused.appendingPathComponent("iphone-se-portrait-320x50@2x.png"))
        let hourAgo = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: reused.path)
        // A dead run's name on a folder holding a file process never writes: left alone.
        let foreign = folder.appendingPathComponent(".out.partial-\(try deadPID())")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: foreign.appendingPathComponent("notes.txt"))

        let run = try Tool.run(["process", artwork("960x150"), "--output-dir", out.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(names(in: folder), ["out", foreign.lastPathComponent],
                       "the killed (unreaped) run's and the reused PID's partials removed; the foreign folder kept")
        waitpid(killed, nil, 0)
        reaped = true
    }

    // MARK: Output and usage

    func testJSONPrintsTheManifest() throws {
        let out = folder.appendingPathComponent("out")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: artwork("960x150"))))
        let run = try Tool.run(["process", "-", "--with", "1320x204,2184x270", "--output-dir", out.path, "--json"], stdin: bytes)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.text.hasSuffix("}\n"))
        XCTAssertEqual(run.text.filter { $0 == "\n" }.count, 1, "one object on one line")
        let printed = try json(run.stdout)
        XCTAssertEqual(printed.keys.sorted(), ["campaign_pixels", "preview", "product", "renders", "report", "schema_version",
                                               "source", "tool_version", "weight_budget_bytes", "weight_budget_profiles",
                                               "written_by"])
        XCTAssertEqual(printed["written_by"] as? String, "creative-tool process", "the marker of process's folders")
        XCTAssertTrue(run.text.hasPrefix(#"{"written_by":"creative-tool process","schema_version":2,"tool_version":""#),
                      "the marker first, then the version fields")
        XCTAssertEqual(printed["product"] as? String, "banner", "the product, banners included")
        let source = try XCTUnwrap(printed["source"] as? [String: Any])
        XCTAssertEqual(source["file_bytes"] as? Int, bytes.count)
        XCTAssertEqual(source["sha256"] as? String, try sha256([URL(fileURLWithPath: artwork("960x150"))]).values.first,
                       "the input named by its content")
        XCTAssertEqual((printed["renders"] as? [Any])?.count, 3)
        XCTAssertEqual(run.stdout, try [UInt8](Data(contentsOf: out.appendingPathComponent("manifest.json"))))
        try assertComplete(out, decode: false)
    }

    func testUsageErrorsExit64AndWriteNothing() throws {
        let out = folder.appendingPathComponent("out").path
        let file = artwork("960x150")
        for arguments in [["process"], ["process", "--output-dir", out], ["process", file],
                          ["process", "-", file, "--output-dir", out], ["process", file, file], ["process", file, "--with", "1x1", "--output-dir", out],
                          ["process", file, file, "--cost"], ["process", file, "--output-dir", ""],
                          ["process", file, "--output-dir", out, "--bogus"],
                          ["process", file, "--output-dir"]] {
            let run = try Tool.run(arguments, in: folder)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.isEmpty, "\(arguments)")
            XCTAssertEqual(run.stdout, [], "\(arguments)")
        }
        XCTAssertEqual(names(in: folder), [])
    }

    func testGuidanceFormats() throws {
        for format in ["html", "markdown", "json"] {
            let run = try Tool.run(["guidance", "--format", format])
            XCTAssertEqual(run.status, 0, run.stderr)
            let prompts = format == "html" ? try BannerPrompts.guidance(product: .banner) : []
            XCTAssertEqual(run.text, Guidance(product: .banner).render(GuidanceFormat(rawValue: format)!, prompts: prompts), format)
        }
        let texts = ["--brand", "Acme <b>", "--headline", "Fly \"now\"", "--cta", "Go", "--colors", "navy"]
        let filled = try Tool.run(["guidance", "--format", "html"] + texts)
        XCTAssertEqual(filled.status, 0, filled.stderr)
        XCTAssertEqual(filled.text, Guidance(product: .banner).render(.html, prompts: try BannerPrompts.guidance(product: .banner, 
            brand: "Acme <b>", headline: "Fly \"now\"", cta: "Go", colors: "navy")))
        XCTAssertTrue(filled.text.contains("Acme &lt;b&gt;"))
        let interstitial = try Tool.run(["guidance", "--format", "html", "--product", "interstitial"])
        XCTAssertEqual(interstitial.text, Guidance(product: .interstitial).render(
            .html, prompts: try BannerPrompts.guidance(product: .interstitial)))
        for format in ["json", "markdown"] {
            let refused = try Tool.run(["guidance", "--format", format, "--cta", "Go"])
            XCTAssertEqual(refused.status, 64, "prompt texts are for the html page")
            XCTAssertTrue(refused.stderr.contains("--cta fills the prompts of --format html"), refused.stderr)
        }
        XCTAssertEqual(try Tool.run(["guidance"]).text, Guidance(product: .banner).render(.json), "JSON by default")
        let refused = try Tool.run(["guidance", "--format", "pdf"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("see 'creative-tool guidance --help'"), refused.stderr)
        XCTAssertEqual(refused.stdout, [])
        XCTAssertEqual(try Tool.run(["guidance", "extra"]).status, 64)
    }
}
