/// How each render's weight budget is decided (docs/profiles.md, "Weight budgets of renders"):
/// the budget asked (`--weight-budget`, `weight_budget=`, a job's `weight_budget`; 150K when none
/// is given) and, with `--profile`, each profile's weight for the render's size in pixels
/// (``PlatformProfile/weightBudget(for:)``). The strictest applies: a profile only ever tightens
/// the budget, and a budget asked below a profile's weight wins over it.
///
/// One value for a whole job (`process` renders many sizes): ``applied(to:)`` gives each render's.
public struct RenderWeightBudget: Sendable, Equatable {
    /// The budget asked, in bytes (``RenderSettings/defaultWeightBudget`` when none was given).
    public let asked: Int
    /// The profiles whose weights apply, in the order given; empty for none.
    public let profiles: [PlatformProfile]

    public init(asked: Int = RenderSettings.defaultWeightBudget, profiles: [PlatformProfile] = []) {
        self.asked = asked
        self.profiles = profiles
    }

    /// The budget of a render of `size` pixels (its canvas): the smallest of ``asked`` and each
    /// profile's weight for the size. The profile is named when its weight is the budget (also
    /// when it equals the budget asked: it is the platform's rule that the render meets); of
    /// several with the same weight, the first given.
    public func applied(to size: PixelSize) -> AppliedWeightBudget {
        var chosen = AppliedWeightBudget(bytes: asked, profile: nil)
        for profile in profiles {
            guard let bytes = profile.weightBudget(for: size) else { continue }
            if bytes < chosen.bytes || (bytes == chosen.bytes && chosen.profile == nil) {
                chosen = AppliedWeightBudget(bytes: bytes, profile: profile.name)
            }
        }
        return chosen
    }
}

/// The weight budget one render met: its bytes, and the profile whose rule it is (nil: the budget
/// asked, or the default).
public struct AppliedWeightBudget: Sendable, Equatable, Hashable {
    public let bytes: Int
    /// The name of the profile whose weight for the render's size is the budget; nil when it is
    /// the budget asked (or the default).
    public let profile: String?

    public init(bytes: Int, profile: String?) {
        self.bytes = bytes
        self.profile = profile
    }

    /// The fields of a manifest's render entry and of `render --json`:
    /// `weight_budget_bytes` and `weight_budget_profile` (null: the budget asked or the default).
    public var jsonFields: [(String, JSONValue)] {
        [("weight_budget_bytes", .int(bytes)), ("weight_budget_profile", profile.map { .string($0) } ?? .null)]
    }

    /// For people: `50000 bytes (iab-lean's weight for the size)` or `153600 bytes`.
    public var description: String {
        "\(bytes) bytes" + (profile.map { " (\($0)'s weight for the size)" } ?? "")
    }
}
