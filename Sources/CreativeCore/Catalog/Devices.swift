/// Portrait or landscape.
public enum Orientation: String, Sendable, CaseIterable {
    case portrait
    case landscape
}

/// The parts of a screen that the system covers (status bar, notch or Dynamic Island, home
/// indicator, Android system bars), in points from each edge.
public struct Insets: Sendable, Hashable {
    public let top: Int
    public let left: Int
    public let bottom: Int
    public let right: Int

    public init(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = Insets()

    /// `{"top": ..., "left": ..., "bottom": ..., "right": ...}`.
    public var json: JSONValue {
        .object([("top", .int(top)), ("left", .int(left)), ("bottom", .int(bottom)), ("right", .int(right))])
    }
}

/// Phone or tablet: what decides a device's fixed standard slot (``Product/standardSlotPoints``).
public enum DeviceClass: String, Sendable, Hashable {
    /// iPhones and Android phones.
    case phone
    /// iPads.
    case tablet
}

/// A common screen: size in points (portrait), its scale, its safe-area insets and its class.
public struct Device: Sendable, Hashable {
    /// Marketing name, for people.
    public let name: String
    /// Portrait width in points.
    public let widthPoints: Int
    /// Portrait height in points.
    public let heightPoints: Int
    /// Pixels per point (2, 3, or an Android density such as 2.625).
    public let scale: Double
    /// Safe-area insets in portrait, in points.
    public let portraitInsets: Insets
    /// Safe-area insets in landscape (the device turned with its top to the left), in points.
    public let landscapeInsets: Insets
    /// Phone or tablet.
    public let deviceClass: DeviceClass

    public init(name: String, widthPoints: Int, heightPoints: Int, scale: Double,
                portraitInsets: Insets = .zero, landscapeInsets: Insets = .zero, deviceClass: DeviceClass = .phone) {
        self.name = name
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.scale = scale
        self.portraitInsets = portraitInsets
        self.landscapeInsets = landscapeInsets
        self.deviceClass = deviceClass
    }

    /// Screen width and height in points for an orientation.
    public func screen(_ orientation: Orientation) -> (width: Int, height: Int) {
        orientation == .portrait ? (widthPoints, heightPoints) : (heightPoints, widthPoints)
    }

    /// Safe-area insets for an orientation, in points.
    public func insets(_ orientation: Orientation) -> Insets {
        orientation == .portrait ? portraitInsets : landscapeInsets
    }
}

/// The device table that `process`, `guidance` and the preview sheet iterate.
///
/// Safe-area insets are the values the platforms publish and report at run time:
/// - iOS: `UIView.safeAreaInsets` of a full-screen view controller, as Apple documents them in
///   the Human Interface Guidelines, "Layout" (device screen and safe-area figures) and the
///   UIKit reference for `safeAreaInsets`: a 20 pt status bar on Touch ID phones (hidden in
///   landscape); notch phones 47 or 48 pt top and 34 pt home indicator in portrait, 47 or 48 pt
///   left and right and 21 pt bottom in landscape; Dynamic Island phones 59 pt top, 34 pt bottom
///   in portrait and 59 pt sides, 21 pt bottom in landscape; Face ID iPads 24 pt status bar and
///   20 pt home indicator in both orientations; Touch ID iPads a 20 pt status bar.
/// - Android: "Window insets" and "Display content edge to edge" (developer.android.com): the
///   status bar is 24 dp and the three-button navigation bar 48 dp, at the bottom in portrait and
///   at the right side in landscape.
public enum Devices {
    /// Common screens, phones then tablets then Android.
    public static let all: [Device] = [
        Device(name: "iPhone SE", widthPoints: 320, heightPoints: 568, scale: 2,
               portraitInsets: Insets(top: 20), landscapeInsets: .zero),
        Device(name: "iPhone 8", widthPoints: 375, heightPoints: 667, scale: 2,
               portraitInsets: Insets(top: 20), landscapeInsets: .zero),
        Device(name: "iPhone 14", widthPoints: 390, heightPoints: 844, scale: 3,
               portraitInsets: Insets(top: 47, bottom: 34), landscapeInsets: Insets(left: 47, bottom: 21, right: 47)),
        Device(name: "iPhone 15", widthPoints: 393, heightPoints: 852, scale: 3,
               portraitInsets: Insets(top: 59, bottom: 34), landscapeInsets: Insets(left: 59, bottom: 21, right: 59)),
        Device(name: "iPhone 11", widthPoints: 414, heightPoints: 896, scale: 2,
               portraitInsets: Insets(top: 48, bottom: 34), landscapeInsets: Insets(left: 48, bottom: 21, right: 48)),
        Device(name: "iPhone 13 Pro Max", widthPoints: 428, heightPoints: 926, scale: 3,
               portraitInsets: Insets(top: 47, bottom: 34), landscapeInsets: Insets(left: 47, bottom: 21, right: 47)),
        Device(name: "iPhone 15 Plus", widthPoints: 430, heightPoints: 932, scale: 3,
               portraitInsets: Insets(top: 59, bottom: 34), landscapeInsets: Insets(left: 59, bottom: 21, right: 59)),
        Device(name: "iPad mini", widthPoints: 744, heightPoints: 1133, scale: 2,
               portraitInsets: Insets(top: 24, bottom: 20), landscapeInsets: Insets(top: 24, bottom: 20), deviceClass: .tablet),
        Device(name: "iPad 9th gen", widthPoints: 810, heightPoints: 1080, scale: 2,
               portraitInsets: Insets(top: 20), landscapeInsets: Insets(top: 20), deviceClass: .tablet),
        Device(name: "iPad Air", widthPoints: 820, heightPoints: 1180, scale: 2,
               portraitInsets: Insets(top: 24, bottom: 20), landscapeInsets: Insets(top: 24, bottom: 20), deviceClass: .tablet),
        Device(name: "iPad Pro 11", widthPoints: 834, heightPoints: 1194, scale: 2,
               portraitInsets: Insets(top: 24, bottom: 20), landscapeInsets: Insets(top: 24, bottom: 20), deviceClass: .tablet),
        Device(name: "iPad Pro 12.9", widthPoints: 1024, heightPoints: 1366, scale: 2,
               portraitInsets: Insets(top: 24, bottom: 20), landscapeInsets: Insets(top: 24, bottom: 20), deviceClass: .tablet),
        Device(name: "Android phone", widthPoints: 360, heightPoints: 800, scale: 3,
               portraitInsets: Insets(top: 24, bottom: 48), landscapeInsets: Insets(top: 24, right: 48)),
        Device(name: "Android Pixel", widthPoints: 412, heightPoints: 915, scale: 2.625,
               portraitInsets: Insets(top: 24, bottom: 48), landscapeInsets: Insets(top: 24, right: 48)),
    ]

    /// The device of a name (case-insensitive), or nil.
    public static func named(_ name: String) -> Device? {
        all.first { $0.name.lowercased() == name.lowercased() }
    }
}
