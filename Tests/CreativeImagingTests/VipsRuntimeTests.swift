import CVips
@testable import CreativeImaging
import XCTest

/// libvips as ``VipsRuntime`` starts it: every operation libvips flags untrusted is blocked (the
/// start reads the flags of the savers only, all loaders but four being blocked; this walks every
/// operation); the operations ``VipsOperation`` makes from their type are the ones named.
final class VipsRuntimeTests: XCTestCase {
    func testEveryUntrustedOperationIsBlocked() throws {
        try VipsRuntime.start()
        XCTAssertEqual(cvips_unblocked_untrusted(), 0)
    }

    func testTheOperationsMadeFromTheirTypeAreTheOnesNamed() throws {
        try VipsRuntime.start()
        for (nickname, typeName) in VipsOperation.typeNames {
            // Made: this libvips has the type, and its nickname is the one asked for.
            let made = try XCTUnwrap(cvips_operation_new_of_type(typeName, nickname), nickname)
            g_object_unref(made)
        }
        // A type whose nickname is another, or no such type: nothing made (the nickname path is taken).
        XCTAssertNil(cvips_operation_new_of_type("VipsMax", "min"))
        XCTAssertNil(cvips_operation_new_of_type("VipsNoSuchOperation", "max"))
    }
}
