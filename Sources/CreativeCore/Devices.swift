/// Portrait or landscape.
public enum Orientation: String, Sendable, CaseIterable {
    case portrait
    case landscape
}

/// A common screen: size in points (portrait) and its scale.
public struct Device: Sendable, Hashable {
    /// Marketing name, for people.
    public let name: String
    /// Portrait width in points.
    public let widthPoints: Int
    /// Portrait height in points.
    public let heightPoints: Int
    /// Pixels per point (2, 3, or an Android density such as 2.625).
    public let scale: Double

    /// Screen width and height in points for an orientation.
    public func screen(_ orientation: Orientation) -> (width: Int, height: Int) {
        orientation == .portrait ? (widthPoints, heightPoints) : (heightPoints, widthPoints)
    }
}

/// The device table that `process`, `guidance` and the preview sheet iterate.
public enum Devices {
    /// Common screens, phones then tablets then Android.
    public static let all: [Device] = [
        Device(name: "iPhone SE", widthPoints: 320, heightPoints: 568, scale: 2),
        Device(name: "iPhone 8", widthPoints: 375, heightPoints: 667, scale: 2),
        Device(name: "iPhone 14", widthPoints: 390, heightPoints: 844, scale: 3),
        Device(name: "iPhone 15", widthPoints: 393, heightPoints: 852, scale: 3),
        Device(name: "iPhone 11", widthPoints: 414, heightPoints: 896, scale: 2),
        Device(name: "iPhone 13 Pro Max", widthPoints: 428, heightPoints: 926, scale: 3),
        Device(name: "iPhone 15 Plus", widthPoints: 430, heightPoints: 932, scale: 3),
        Device(name: "iPad mini", widthPoints: 744, heightPoints: 1133, scale: 2),
        Device(name: "iPad 9th gen", widthPoints: 810, heightPoints: 1080, scale: 2),
        Device(name: "iPad Air", widthPoints: 820, heightPoints: 1180, scale: 2),
        Device(name: "iPad Pro 11", widthPoints: 834, heightPoints: 1194, scale: 2),
        Device(name: "iPad Pro 12.9", widthPoints: 1024, heightPoints: 1366, scale: 2),
        Device(name: "Android phone", widthPoints: 360, heightPoints: 800, scale: 3),
        Device(name: "Android Pixel", widthPoints: 412, heightPoints: 915, scale: 2.625),
    ]
}
