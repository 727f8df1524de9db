import XCTest
@testable import CreativeFleet

/// Store addresses and credentials, without a server.
final class AddressTests: XCTestCase {
    func testS3LocationsAndObjectURLsInBothAddressings() throws {
        let prefix = try S3Location(parsing: "s3://renders/out/")
        XCTAssertEqual(prefix.appending("ab/manifest.json").key, "out/ab/manifest.json")
        let path = try S3Endpoint(url: "http://127.0.0.1:9000/", region: "eu-west-1")
        XCTAssertEqual(path.url(for: prefix.appending("a b+c.png")), "http://127.0.0.1:9000/renders/out/a%20b%2Bc.png")
        let virtual = try S3Endpoint(url: nil, region: "eu-west-1")
        XCTAssertEqual(virtual.url(for: S3Location(bucket: "renders", key: "k")), "https://renders.s3.eu-west-1.amazonaws.com/k")
        for bad in ["renders/x", "s3://", "s3://UPPER/x", "s3://ab/x"] {
            XCTAssertThrowsError(try S3Location(parsing: bad)) { XCTAssertEqual(($0 as? FleetError)?.code, "bad_option") }
        }
        XCTAssertThrowsError(try S3Endpoint(url: "http://host:1/path", region: "x")) { error in
            guard case .badOption(let message)? = error as? FleetError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("with no path"), message)
        }
    }

    func testCredentialsFromTheEnvironmentThenTheSharedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("creative-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[default]\naws_access_key_id = DK\naws_secret_access_key = DS\n\n[ci]\naws_access_key_id=CK\naws_secret_access_key=CS\naws_session_token = T\n"
            .write(to: folder.appendingPathComponent("credentials"), atomically: true, encoding: .utf8)
        try "[profile ci]\nregion = eu-central-1\n".write(to: folder.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        let files = ["HOME": folder.path, "AWS_SHARED_CREDENTIALS_FILE": folder.appendingPathComponent("credentials").path,
                     "AWS_CONFIG_FILE": folder.appendingPathComponent("config").path]
        XCTAssertEqual(try AWSCredentials.load(environment: files),
                       AWSCredentials(accessKey: "DK", secretKey: "DS", region: "us-east-1"))
        XCTAssertEqual(try AWSCredentials.load(environment: files.merging(["AWS_PROFILE": "ci"]) { $1 }),
                       AWSCredentials(accessKey: "CK", secretKey: "CS", sessionToken: "T", region: "eu-central-1"))
        let env = files.merging(["AWS_ACCESS_KEY_ID": "EK", "AWS_SECRET_ACCESS_KEY": "ES", "AWS_REGION": "ap-south-1"]) { $1 }
        XCTAssertEqual(try AWSCredentials.load(environment: env), AWSCredentials(accessKey: "EK", secretKey: "ES", region: "ap-south-1"))
        XCTAssertThrowsError(try AWSCredentials.load(environment: ["HOME": folder.appendingPathComponent("none").path])) {
            XCTAssertEqual(($0 as? FleetError)?.code, "no_credentials")
        }
    }
}
