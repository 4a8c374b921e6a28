import Foundation
import XCTest

/// The app at `/` in headless chromium (selenium): find a song, play it, and see its poster change
/// with each line; scrub; make a card; every control in view at 1920×1000, the page usable at
/// 390×844; a song without lyrics marked in the list; `/overlay` without `--follow` says how to
/// start it. Times come from the page's own `audio.currentTime`.
final class ServeBrowserTests: CLITestCase {
    func testTheAppPlaysASongWithItsPostersInStep() throws {
        try requireBrowser()
        let quiet = try makeSongWithoutLyrics(title: "Quiet Harbour", artist: "The Fixtures")
        let server = try startServer(["samples", quiet, "--listen", "127.0.0.2", "--token", "browser-token-1"])
        let result = try run([Self.package.appendingPathComponent("Tests/Fixtures/browser-check.py").path, "app",
                              "--base", server.base, "--token", "browser-token-1", "--song", "Harbour Bells",
                              "--no-lyrics", "Quiet Harbour", "--not-following",
                              "--shots", Self.screenshots], executable: "/usr/bin/python3")
        if result.status == 77 { throw XCTSkip("the browser could not start: \(result.stdout)") }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        print("browser: \(result.stdout.split(separator: "\n").last ?? "")")
    }
}
