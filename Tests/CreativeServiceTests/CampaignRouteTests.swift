import CreativeCore
import CreativeImaging
import CreativeTestSupport
import Foundation
import XCTest
@testable import CreativeService

/// The campaign over HTTP: `/v1/process?with=`, the zip answer, and `POST /v1/campaign`.
final class CampaignRouteTests: XCTestCase {
    private func sizes(_ value: Any?) -> [String] {
        ((value as? [[String: Int]]) ?? []).map { "\($0["width"] ?? 0)x\($0["height"] ?? 0)" }
    }

    func testProcessWithTheCampaignsOtherSizesRendersWhereTheCreativeWins() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let upload = try Fixture.testImage("960x150")
        let alone = HTTPClient.request(server.port, "POST", "/v1/process?inline=false", body: upload)
        XCTAssertEqual(alone.status, 200, alone.text)
        let aloneManifest = try XCTUnwrap(alone.json?["manifest"] as? [String: Any])
        XCTAssertEqual((aloneManifest["renders"] as? [Any])?.count, 28, "alone: every anchored slot")
        XCTAssertEqual(sizes(aloneManifest["campaign_pixels"]), ["960x150"])
        let with = HTTPClient.request(server.port, "POST", "/v1/process?inline=false&with=1320x204,2184x270", body: upload)
        XCTAssertEqual(with.status, 200, with.text)
        let manifest = try XCTUnwrap(with.json?["manifest"] as? [String: Any])
        XCTAssertEqual((manifest["renders"] as? [Any])?.count, 3)
        XCTAssertEqual(sizes(manifest["campaign_pixels"]), ["960x150", "1320x204", "2184x270"])
        let bad = HTTPClient.request(server.port, "POST", "/v1/process?with=961x150", body: upload)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.errorCode, "bad_request")
    }

    /// `Accept: application/zip`: the folder `process` writes, as a zip that libzip reads with its
    /// consistency checks, each entry stored with its CRC, byte for byte the files the manifest lists.
    func testTheZipAnswerHoldsTheRendersPreviewAndManifest() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let upload = try Fixture.testImage("2184x270")
        let answer = HTTPClient.request(server.port, "POST", "/v1/process?with=960x150,1320x204",
                                        headers: [("Accept", "application/json;q=0.5, application/zip")], body: upload)
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(answer.headers["content-type"], "application/zip")
        XCTAssertEqual(answer.headers["content-length"], String(answer.body.count))
        let entries = try XCTUnwrap(BundleZip.entries(of: answer.body), "libzip reads the answer")
        XCTAssertEqual(entries.last?.name, "manifest.json")
        XCTAssertTrue(entries.allSatisfy { $0.method == 0 }, "stored")
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(entries.last).bytes))
            as? [String: Any])
        let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
        XCTAssertEqual(renders.count, 19)
        XCTAssertEqual(entries.count, renders.count + 3, "the renders, the preview sheet and page, the manifest")
        XCTAssertEqual(answer.headers["x-creative-renders"], "19")
        for render in renders {
            let name = try XCTUnwrap(render["file"] as? String)
            let entry = try XCTUnwrap(entries.first { $0.name == name }, name)
            XCTAssertEqual(Checksum.sha256(entry.bytes), render["sha256"] as? String, name)
            XCTAssertEqual(try ImageSource(bytes: entry.bytes).header.size,
                           try PixelSize(parsing: "\((render["slot_pixels"] as? [String: Int])?["width"] ?? 0)x"
                                         + "\((render["slot_pixels"] as? [String: Int])?["height"] ?? 0)"), name)
        }
        let described = try XCTUnwrap(manifest["preview"] as? [String: Any])
        let preview = try XCTUnwrap(entries.first { $0.name == "preview.png" })
        XCTAssertEqual(Checksum.sha256(preview.bytes), described["sha256"] as? String)
        let page = try XCTUnwrap(entries.first { $0.name == "preview.html" })
        XCTAssertEqual(Checksum.sha256(page.bytes), (described["page"] as? [String: Any])?["sha256"] as? String)
        // Without the Accept header, or with application/zip refused (q=0): the JSON answer.
        for headers in [[], [("Accept", "application/zip;q=0, application/json")]] {
            let json = HTTPClient.request(server.port, "POST", "/v1/process?inline=false", headers: headers, body: upload)
            XCTAssertEqual(json.headers["content-type"], "application/json", "\(headers)")
        }
        // A rejected creative: 422 with its report, not a zip.
        let rejected = HTTPClient.request(server.port, "POST", "/v1/process", headers: [("Accept", "application/zip")],
                                          body: Array("not an image".utf8))
        XCTAssertEqual(rejected.status, 422)
    }

    private func form(_ files: [(String, [UInt8])], boundary: String = "campaign-boundary-7d1") -> [UInt8] {
        var body: [UInt8] = []
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nignored\r\n".utf8)
        for (name, bytes) in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"creative\"; filename=\"\(name)\"\r\n".utf8)
            body += Array("Content-Type: image/png\r\n\r\n".utf8) + bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    func testTheCampaignRouteAnswersCampaignJSON() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let files = try ["960x150", "1320x204", "2184x270"].map { ("banner-\($0).png", try Fixture.testImage($0)) }
            + [("notes.png", Array("not an image".utf8))]
        let answer = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                        headers: [("Content-Type", "multipart/form-data; boundary=\"campaign-boundary-7d1\"")],
                                        body: form(files))
        XCTAssertEqual(answer.status, 200, answer.text)
        let campaign = try XCTUnwrap(answer.json)
        XCTAssertEqual(campaign["written_by"] as? String, "creative-tool process")
        XCTAssertEqual(sizes(campaign["campaign_pixels"]), ["960x150", "1320x204", "2184x270"])
        let creatives = try XCTUnwrap(campaign["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.map { $0["name"] as? String }, ["banner-960x150", "banner-1320x204", "banner-2184x270", "notes"])
        XCTAssertEqual(creatives.map { $0["valid"] as? Bool }, [true, true, true, false])
        XCTAssertEqual(creatives.compactMap { $0["renders"] as? Int }, [3, 6, 19, 0])
        let slots = try XCTUnwrap(campaign["slots"] as? [[String: Any]])
        XCTAssertEqual(slots.count, 28)
        XCTAssertTrue(slots.allSatisfy { ($0["file_bytes"] as? Int ?? 0) > 0 && $0["creative"] is String })
        XCTAssertTrue(campaign["sheet"] is NSNull)
        // Not a form, a form without files, a broken form: 400.
        let plain = HTTPClient.request(server.port, "POST", "/v1/campaign", body: try Fixture.testImage("960x150"))
        XCTAssertEqual(plain.status, 400)
        let empty = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                       headers: [("Content-Type", "multipart/form-data; boundary=b")], body: Array("--b--\r\n".utf8))
        XCTAssertEqual(empty.status, 400)
        let cut = Array(form(files).dropLast(40))
        let broken = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                        headers: [("Content-Type", "multipart/form-data; boundary=campaign-boundary-7d1")], body: cut)
        XCTAssertEqual(broken.status, 400)
        XCTAssertEqual(broken.errorCode, "bad_request")
    }

    func testASecondCreativeOfTheSameSizeIsNotRenderedWithItsOwnCode() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let files = try [("first.png", Fixture.testImage("960x150")), ("second.png", Fixture.testImage("960x150"))]
        let answer = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                        headers: [("Content-Type", "multipart/form-data; boundary=\"campaign-boundary-7d1\"")],
                                        body: form(files))
        XCTAssertEqual(answer.status, 200, answer.text)
        let creatives = try XCTUnwrap(answer.json?["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.compactMap { $0["renders"] as? Int }, [28, 0])
        let failure = try XCTUnwrap(creatives[1]["failure"] as? [String: Any])
        XCTAssertEqual(failure["code"] as? String, "duplicate_size")
        XCTAssertEqual(failure["kept"] as? String, "first.png")
        XCTAssertTrue((failure["message"] as? String)?.hasPrefix("960x150 is also the size of first.png, which is kept") ?? false)
    }

    /// `Accept: application/zip` on `/v1/campaign`: the folder `process FILE FILE...` writes, each
    /// creative's files under its name byte for byte as its manifest lists them, the contact sheet
    /// `campaign.json` names, and nothing left charged once the answer is read.
    func testTheCampaignZipHoldsEveryCreativesFolderTheSheetAndCampaignJSON() throws {
        let server = try Fixture.server()
        defer { server.stop(grace: 5) }
        let files = try ["960x150", "2184x270"].map { ("banner-\($0).png", try Fixture.testImage($0)) }
            + [("notes.png", Array("not an image".utf8))]
        let answer = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                        headers: [("Content-Type", "multipart/form-data; boundary=\"campaign-boundary-7d1\""),
                                                  ("Accept", "application/zip")],
                                        body: form(files))
        XCTAssertEqual(answer.status, 200, answer.text)
        XCTAssertEqual(answer.headers["content-type"], "application/zip")
        XCTAssertEqual(answer.headers["content-disposition"], "attachment; filename=\"campaign.zip\"")
        let entries = try XCTUnwrap(BundleZip.entries(of: answer.body), "libzip reads the answer")
        XCTAssertEqual(entries.last?.name, "campaign.json")
        let campaign = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(entries.last).bytes))
            as? [String: Any])
        let creatives = try XCTUnwrap(campaign["creatives"] as? [[String: Any]])
        XCTAssertEqual(creatives.compactMap { $0["renders"] as? Int }, [9, 19, 0])
        for name in ["banner-960x150", "banner-2184x270"] {
            let manifestEntry = try XCTUnwrap(entries.first { $0.name == name + "/manifest.json" }, name)
            let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(manifestEntry.bytes)) as? [String: Any])
            let renders = try XCTUnwrap(manifest["renders"] as? [[String: Any]])
            for render in renders {
                let file = try XCTUnwrap(render["file"] as? String)
                let entry = try XCTUnwrap(entries.first { $0.name == name + "/" + file }, file)
                XCTAssertEqual(Checksum.sha256(entry.bytes), render["sha256"] as? String, file)
            }
            let preview = try XCTUnwrap((manifest["preview"] as? [String: Any])?["file"] as? String)
            XCTAssertNotNil(entries.first { $0.name == name + "/" + preview }, preview)
        }
        // The rejected creative: its manifest alone, saying why.
        XCTAssertEqual(entries.filter { $0.name.hasPrefix("notes/") }.map(\.name), ["notes/manifest.json"])
        let sheet = try XCTUnwrap(campaign["sheet"] as? [String: Any])
        let sheetName = try XCTUnwrap(sheet["file"] as? String)
        XCTAssertTrue(["campaign.png", "campaign.jpg"].contains(sheetName))
        let sheetEntry = try XCTUnwrap(entries.first { $0.name == sheetName })
        XCTAssertEqual(Checksum.sha256(sheetEntry.bytes), sheet["sha256"] as? String)
        // Without the header: campaign.json, no sheet.
        let json = HTTPClient.request(server.port, "POST", "/v1/campaign",
                                      headers: [("Content-Type", "multipart/form-data; boundary=\"campaign-boundary-7d1\"")],
                                      body: form(files))
        XCTAssertEqual(json.headers["content-type"], "application/json")
        XCTAssertTrue(json.json?["sheet"] is NSNull)
    }
}
