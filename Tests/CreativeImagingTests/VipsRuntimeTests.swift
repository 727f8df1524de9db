import CVips
@testable import CreativeImaging
import XCTest

/// libvips as ``VipsRuntime`` starts it: every operation libvips flags untrusted is blocked (the
/// start reads the flags of the savers only, all loaders but four being blocked; this walks every
/// operation).
final class VipsRuntimeTests: XCTestCase {
    func testEveryUntrustedOperationIsBlocked() throws {
        try VipsRuntime.start()
        XCTAssertEqual(cvips_unblocked_untrusted(), 0)
    }
}
