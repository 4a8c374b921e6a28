import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PosterGraphics

/// The app's pages, scripts and style sheet, compiled into the binary (SwiftPM's embedded
/// resources): served by name from a fixed table, never looked up on disk.
enum Assets {
    struct Asset: Sendable {
        let type: String
        let bytes: [UInt8]
        let etag: String

        init(_ type: String, _ bytes: [UInt8]) {
            self.type = type
            self.bytes = bytes
            etag = "\"" + String(Digest.sha256(Data(bytes)).prefix(32)) + "\""
        }
    }

    static let table: [(path: String, asset: Asset)] = [
        ("/", Asset("text/html; charset=utf-8", PackageResources.index_html)),
        ("/app.js", Asset("text/javascript; charset=utf-8", PackageResources.app_js)),
        ("/app.css", Asset("text/css; charset=utf-8", PackageResources.app_css)),
        ("/overlay", Asset("text/html; charset=utf-8", PackageResources.overlay_html)),
        ("/overlay.js", Asset("text/javascript; charset=utf-8", PackageResources.overlay_js)),
    ]

    static func register(on router: Router<BasicRequestContext>) {
        for (path, asset) in table {
            router.get(RouterPath(path)) { request, _ in response(asset, request) }
        }
    }

    /// The asset, or 304 when the client has this version (revalidated on every load, so a new
    /// binary's app is picked up at once).
    static func response(_ asset: Asset, _ request: Request) -> Response {
        var headers: HTTPFields = [.eTag: asset.etag, .cacheControl: "no-cache", .contentType: asset.type]
        if request.headers[.ifNoneMatch] == asset.etag { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(asset.bytes.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
