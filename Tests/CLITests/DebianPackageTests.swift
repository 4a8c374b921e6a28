import Foundation
import TestSupport
import XCTest

/// `make deb`, installed with `apt-get install ./lyricposter_*.deb` into a clean Debian 12 root
/// filesystem (`debootstrap --variant=minbase`, cached between runs under ~/.cache), then run there
/// as an unprivileged user: `--version`, a frame, an audio file's frame, `lines`, `inspect`,
/// `catalog`, and a frame with /proc unmounted. The frame must be byte-identical to the host's.
/// This proves the package's Depends: line, which is made the way the container's runtime list is
/// checked (scripts/check-runtime-libs.sh). Needs root (debootstrap, chroot) and the release build.
final class DebianPackageTests: CLITestCase {
    var release: String { Self.package.appendingPathComponent(".build/release/lyricposter").path }

    func testTheDebInstallsIntoACleanDebianAndRendersTheSameFrames() throws {
        let manual = Self.package.appendingPathComponent(".build/man/lyricposter.1").path
        guard FileManager.default.isExecutableFile(atPath: release), FileManager.default.fileExists(atPath: manual) else {
            throw XCTSkip("needs the release build and the man page: run `make test`")
        }
        // It packages and runs the release build, which a sanitizer does not instrument: under
        // `make test-sanitized` it would only repeat what `make test` proved.
        guard !Sanitizers.active else {
            FileHandle.standardError.write(Data("SKIPPED under a sanitizer: the .deb holds the release build (make test runs this)\n".utf8))
            throw XCTSkip("the .deb holds the release build, which no sanitizer instruments; make test runs this")
        }
        guard getuid() == 0 else {
            FileHandle.standardError.write(Data("SKIPPED: the .deb test needs root (debootstrap, chroot)\n".utf8))
            throw XCTSkip("the .deb test needs root (debootstrap, chroot)")
        }
        var start = Date()
        // What `make deb` runs after its build (a build from inside `swift test` would wait on its lock).
        func makeDeb(_ out: String) throws -> Run {
            try run([Self.package.path + "/scripts/make-deb.sh", release, manual, out], executable: "/bin/bash")
        }
        let made = try makeDeb(temp("deb"))
        XCTAssertEqual(made.status, 0, made.stderr)
        let deb = try XCTUnwrap(made.stdout.split(separator: "\n").last.map(String.init))
        let buildSeconds = Date().timeIntervalSince(start)
        let fields = try run(["-f", deb, "Depends", "Installed-Size"], executable: "/usr/bin/dpkg-deb")
        for package in ["libcairo2", "libpango-1.0-0", "libturbojpeg0", "libwebp7", "fonts-noto-cjk", "fontconfig"] {
            XCTAssertTrue(fields.stdout.contains(package), "Depends: names \(package): \(fields.stdout)")
        }
        let contents = try run(["-c", deb], executable: "/usr/bin/dpkg-deb").stdout
        for path in ["./usr/bin/lyricposter", "./usr/share/man/man1/lyricposter.1.gz", "./usr/share/lyricposter/fonts/NotoSans-Regular.ttf",
                     "./usr/share/bash-completion/completions/lyricposter", "./usr/lib/systemd/user/lyricposter-follow.service",
                     "./usr/share/doc/lyricposter/README.md", "./usr/share/doc/lyricposter/LICENSE",
                     "./usr/share/doc/lyricposter/docs/serve.md"] {
            XCTAssertTrue(contents.contains(path + "\n") || contents.contains(path + " "), path)
        }
        let file = try run([deb], executable: "/usr/bin/sha256sum")
        XCTAssertEqual(try makeDeb(temp("deb2")).status, 0)
        let again = temp("deb2") + "/" + (deb as NSString).lastPathComponent
        let second = try run([again], executable: "/usr/bin/sha256sum")
        // On a mismatch, say which part of the package differs: its control files (with the
        // members' checksums), or which members of its data by name, mode, owner, size or time.
        func parts(_ path: String) throws -> (control: String, listing: [String]) {
            (try run(["-I", path], executable: "/usr/bin/dpkg-deb").stdout + (try run(["-I", path, "md5sums"], executable: "/usr/bin/dpkg-deb").stdout),
             try run(["-c", path], executable: "/usr/bin/dpkg-deb").stdout.split(separator: "\n").map(String.init))
        }
        var difference = ""
        if second.stdout.prefix(64) != file.stdout.prefix(64) {
            let (a, b) = (try parts(deb), try parts(again))
            let (one, two) = (a.control.split(separator: "\n").map(String.init), b.control.split(separator: "\n").map(String.init))
            difference = (a.control == b.control ? "" : "control lines only in the first: \(one.filter { !two.contains($0) }); "
                + "only in the second: \(two.filter { !one.contains($0) }); ")
                + "members only in the first: \(Set(a.listing).subtracting(b.listing).sorted()); only in the second: "
                + "\(Set(b.listing).subtracting(a.listing).sorted())"
        }
        XCTAssertEqual(second.stdout.prefix(64), file.stdout.prefix(64), "the same build makes the same .deb. \(difference)")

        // The user's files.
        let inputs = temp("inputs")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + cover, toPath: inputs + "/cover.jpg")
        try FileManager.default.copyItem(atPath: Self.package.path + "/" + lyrics, toPath: inputs + "/song.lrc")
        try FileManager.default.copyItem(atPath: try AudioFixtures.path("tagged.flac"), toPath: inputs + "/song.flac")
        try Data("{\"id\": \"one\", \"cover\": \"cover.jpg\", \"lyrics\": \"song.lrc\"}\n".utf8).write(to: URL(fileURLWithPath: inputs + "/catalog.jsonl"))

        start = Date()
        let cache = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/lyricposter-tests").path
        let work = temp("clean")
        let checked = try run([Self.package.path + "/Tests/Fixtures/deb-check.sh", deb, cache, work, inputs], executable: "/bin/bash")
        guard checked.status == 0 else {
            let reason = checked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            FileHandle.standardError.write(Data("SKIPPED: no clean Debian root: \(reason)\n".utf8))
            throw XCTSkip("no clean Debian root filesystem: \(reason)")
        }
        let checkSeconds = Date().timeIntervalSince(start)
        let results = work + "/results"
        func status(_ name: String) -> String {
            ((try? String(contentsOfFile: results + "/" + name + ".status", encoding: .utf8)) ?? "none").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func output(_ name: String, _ stream: String = "out") -> String {
            (try? String(contentsOfFile: results + "/" + name + "." + stream, encoding: .utf8)) ?? ""
        }
        XCTAssertEqual(status("install"), "0", (try? String(contentsOfFile: results + "/apt.log", encoding: .utf8)) ?? "")
        for run in ["version", "frame", "audio", "lines", "inspect", "catalog", "man"] {
            XCTAssertEqual(status(run), "0", "\(run) in the clean root: \(output(run, "err"))")
        }
        XCTAssertTrue(output("version").hasPrefix("lyricposter "), output("version"))
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(output("inspect").utf8)), "inspect prints JSON")
        let manifest = try json(results + "/files/lines/manifest.json")
        XCTAssertGreaterThan((manifest["frames"] as? [Any])?.count ?? 0, 10)
        XCTAssertNotNil(try? json(results + "/files/catalog/one/catalog.json"), "the catalogue's song is in place")
        XCTAssertTrue(FileManager.default.fileExists(atPath: results + "/files/audio.png"))
        XCTAssertEqual(status("noproc"), "1")
        XCTAssertTrue(output("noproc", "err").contains("error: /proc is not mounted"), output("noproc", "err"))

        // The host's release build draws the same frame, byte for byte.
        let host = temp("host.png")
        let drawn = try run(["frame", inputs + "/cover.jpg", inputs + "/song.lrc", "--at", "12", "-o", host], executable: release)
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: results + "/files/frame.png")), try Data(contentsOf: URL(fileURLWithPath: host)),
                       "the packaged binary in a clean Debian renders the host's bytes")
        let packages = (try? String(contentsOfFile: results + "/packages.txt", encoding: .utf8))?.split(separator: "\n").count ?? 0
        print(String(format: "deb: %@ (%@); built twice in %.0f s; clean root with it installed and run in %.0f s, %d packages installed",
                     (deb as NSString).lastPathComponent, fields.stdout.split(separator: "\n").last.map(String.init) ?? "", buildSeconds,
                     checkSeconds, packages))
    }
}
