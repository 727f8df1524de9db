/// The known key an unknown key was probably meant to be (`bannertitle` -> `bannerTitle`).
///
/// A key is near a known key when, compared without regard to case, the two are equal once `_`,
/// `-` and spaces are left out (`banner_title`, `Banner Title`), or are at most two edits apart
/// (a letter added, removed or changed, or two neighbours swapped: `bannerTtle`, `ctaUrll`,
/// `pgn`) and the edits leave most of the shorter word as it was: fewer edits than half its
/// letters, so a short word is never taken for another short word (`gif` is not `avif`, two
/// edits in three letters). The nearest wins; ties go to the earlier key of the list. Keys whose
/// lengths differ by more than two are never compared letter by letter, so a huge key costs one
/// length check per known key.
public enum KeySuggestion {
    /// Most edits between a key and the key it is taken for.
    public static let maxEdits = 2

    /// The known key nearest to `key`, or nil when none is near.
    public static func nearest(to key: String, in known: [String]) -> String? {
        let folded = fold(key)
        let lowered = Array(key.lowercased().unicodeScalars)
        var best: (key: String, distance: Int)?
        for candidate in known {
            let distance: Int
            if folded == fold(candidate) {
                distance = 0
            } else if let edits = editDistance(lowered, Array(candidate.lowercased().unicodeScalars), limit: maxEdits),
                      2 * edits < min(lowered.count, candidate.unicodeScalars.count) {
                distance = edits
            } else {
                continue
            }
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.key
    }

    /// Lower case without `_`, `-` and spaces.
    private static func fold(_ key: String) -> String {
        String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " }.map(Character.init))
    }

    /// The edit distance of `a` and `b` (letters added, removed, changed, or two neighbours
    /// swapped: the optimal string alignment distance) when it is at most `limit`, else nil.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        var previousMinimum = 0
        for i in stride(from: 1, through: a.count, by: 1) {
            current[0] = i
            var rowMinimum = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            // A swap reaches back two rows: stop when neither row can lead under the limit.
            if rowMinimum > limit && previousMinimum > limit { return nil }
            previousMinimum = rowMinimum
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }
}
