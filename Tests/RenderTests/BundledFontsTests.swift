import Foundation
@testable import LyricPoster
import XCTest

/// The library finds its bundled fonts in the package resource built with the program, not
/// through a path into the source checkout.
final class BundledFontsTests: XCTestCase {
    func testTheBundledFontsAreThePackageResource() throws {
        if let set = ProcessInfo.processInfo.environment["LYRICPOSTER_FONTS"], !set.isEmpty {
            throw XCTSkip("SKIPPED LOUDLY: LYRICPOSTER_FONTS is set (\(set)), which comes before the resource")
        }
        let folder = try XCTUnwrap(FontSetup.bundledDirectory(), "no bundled fonts found")
        XCTAssertTrue(folder.hasSuffix("LyricPoster_BundledFonts.resources"), folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let checkout = try FileManager.default.contentsOfDirectory(atPath: Paths.package.appendingPathComponent("fonts").path)
        XCTAssertEqual(Set(names.filter { $0.hasSuffix(".ttf") }), Set(checkout.filter { $0.hasSuffix(".ttf") }))
        XCTAssertTrue(names.contains("OFL.txt"), "the fonts' licence travels with them")
        // And a library made from it sets text in them.
        let library = try FontSetup.library(FontOptions())
        XCTAssertTrue(library.fontFiles().contains { $0.hasPrefix(folder) }, "\(library.fontFiles().prefix(3))")
    }
}
