import CreativeCore

/// Command lines that parse but were meant otherwise, answered with the line meant.
enum UsageHints {
    /// A value the shell split in two: `--slot 390x61 @3x` (the scale after a space) and an
    /// unquoted device name, `--device iPhone 15`. Each is a usage error naming the line meant,
    /// instead of a `file_not_found` for the second word.
    /// - Throws: ``CLIError/usage(_:)``.
    static func checkSplitValues(_ arguments: ParsedArguments) throws(CLIError) {
        let slotFlag = RenderRequest.slot.flag
        if let slot = arguments.value(slotFlag), let next = arguments.words(after: slotFlag).first, next.hasPrefix("@") {
            throw .usage("the scale goes with the slot, without a space: \(slotFlag) \(slot)\(next)")
        }
        let deviceFlag = CommonOptions.device.flag
        guard let device = arguments.value(deviceFlag), Devices.named(device) == nil else { return }
        let words = arguments.words(after: deviceFlag)
        for count in stride(from: min(words.count, 3), through: 1, by: -1) {
            let joined = ([device] + words.prefix(count)).joined(separator: " ")
            if let meant = Devices.named(joined) {
                throw .usage("quote a device name with spaces: \(deviceFlag) \"\(meant.name)\"")
            }
        }
    }

    /// The word of `known` meant by `word`: an alias (`md` for `markdown`), else the nearest.
    static func nearest(_ word: String, in known: [String], also aliases: [String: String] = [:]) -> String? {
        aliases[word.lowercased()] ?? KeySuggestion.nearest(to: word, in: known)
    }
}
