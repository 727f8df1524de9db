import CreativeCore
import XCTest

/// A wrong size is pointed to the sizes of its own shape first, and to the product that
/// accepts it when it is another product's size.
final class NearestSizeTests: XCTestCase {
    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    private func message(_ width: Int, _ height: Int, _ product: Product = .banner) -> String {
        ValidationRules.dimensionsIssue(size(width, height), product: product)?.message ?? "(accepted)"
    }

    func testSizesOfTheSameShapeComeFirst() {
        XCTAssertEqual(Product.banner.nearest(to: size(1000, 1000)), [size(300, 250), size(1320, 204)])
        XCTAssertEqual(Product.banner.nearest(to: size(320, 480)).first, size(300, 250))
        XCTAssertEqual(Product.banner.nearest(to: size(961, 150)), [size(960, 150), size(1320, 204)])
        XCTAssertEqual(Product.companion.nearest(to: size(300, 250)), [size(320, 50), size(640, 100)],
                       "no rectangle among the companion sizes: the nearest strips")
        XCTAssertEqual(Product.banner.nearest(to: size(10, 10), count: 20).count, 8, "every size, once")
    }

    func testAnotherProductsSizeNamesThatProduct() {
        XCTAssertTrue(message(320, 480).hasPrefix("320x480 is not an accepted size (it is an interstitial size: give "
                                                 + "--product interstitial, product=interstitial over HTTP); the nearest "
                                                 + "are 300x250 or 320x100."), message(320, 480))
        XCTAssertTrue(message(1080, 1920).contains("(it is an interstitial size: give --product interstitial"))
        XCTAssertTrue(message(640, 100).contains("(it is a companion size: give --product companion"))
        XCTAssertTrue(message(300, 250, .interstitial).contains("(it is a banner size: give --product banner"))
        XCTAssertFalse(message(1000, 1000).contains("(it is"), "no product accepts it: none named")
    }
}
