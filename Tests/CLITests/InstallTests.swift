import Foundation
import XCTest

/// `make install` / `make uninstall` into a staging folder, the installed binary started through
/// $PATH (as users and the container start it), and the shared libraries it needs against the
/// container's runtime package list. Needs the static release build and the man page, which
/// `make test` makes first.
final class InstallTests: CLITestCase {
    var release: String { Self.package.appendingPathComponent(".build/release/lyricposter").path }

    func make(_ arguments: [String]) throws -> Run {
        try run(["-s", "-C", Self.package.path] + arguments, executable: "/usr/bin/make")
    }

    func testInstallPutsEverythingWhereItBelongsAndUninstallRemovesExactlyThat() throws {
        let manual = Self.package.appendingPathComponent(".build/man/lyricposter.1").path
        guard FileManager.default.isExecutableFile(atPath: release), FileManager.default.fileExists(atPath: manual) else {
            throw XCTSkip("needs the release build and the man page: run `make test`")
        }
        let stage = temp("stage")
        var result = try make(["install-files", "PREFIX=/usr", "DESTDIR=" + stage])
        XCTAssertEqual(result.status, 0, result.stderr)
        let usr = stage + "/usr"
        for path in ["bin/lyricposter", "share/lyricposter/fonts/NotoSans-Regular.ttf", "share/lyricposter/fonts/OFL.txt",
                     "share/man/man1/lyricposter.1", "share/bash-completion/completions/lyricposter",
                     "share/zsh/site-functions/_lyricposter", "share/fish/vendor_completions.d/lyricposter.fish"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: usr + "/" + path), path)
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: usr + "/bin/lyricposter"))
        let bundled = try files(Self.package.appendingPathComponent("fonts").path).filter { $0.hasSuffix(".ttf") }
        XCTAssertEqual(try files(usr + "/share/lyricposter/fonts").filter { $0.hasSuffix(".ttf") }, bundled)
        let man = try String(contentsOfFile: usr + "/share/man/man1/lyricposter.1", encoding: .utf8)
        XCTAssertTrue(man.contains(".Nm lyricposter"))
        // The man page says what the flags do, the exit codes, the theme-file keys and where the README is.
        for text in ["--no-karaoke draws it unfilled", "Exit codes: 0 done; 1 an input or output could not be used",
                     "64 a usage", "130", "line_progress", "/usr/share/doc/lyricposter/README.md",
                     "LYRICPOSTER_NO_CACHE=1"] {
            XCTAssertTrue(man.contains(text), "the man page says \(text)")
        }
        // The page is clean mdoc, ASCII throughout (the generator drops other characters, so the
        // help texts are ASCII), with the real exit statuses; the README it points to is installed.
        XCTAssertTrue(man.unicodeScalars.allSatisfy(\.isASCII), "the man page is ASCII")
        XCTAssertTrue(man.contains("display = stamp - offset"), "the offset rule keeps its minus")
        for status in ["0", "1", "3", "64", "130"] {
            XCTAssertTrue(man.contains(".It \(status)\n"), "EXIT STATUS lists \(status)")
        }
        XCTAssertFalse(man.contains(".Ex -std"), "not the generic exit status sentence")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            result = try run(["-ww", "-mandoc", "-z", usr + "/share/man/man1/lyricposter.1"], executable: "/usr/bin/groff")
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stderr, "", "groff -ww -mandoc finds nothing to warn of")
        } else {
            XCTFail("groff is missing (make test installs groff-base): the man page could not be checked")
        }
        XCTAssertTrue(man.contains("/usr/share/doc/lyricposter/README.md"), "the man page points at the README")
        for doc in ["README.md", "LICENSE", "CHANGELOG.md", "docs/serve.md", "docs/themes.md"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: usr + "/share/doc/lyricposter/" + doc), "installed: \(doc)")
        }
        // Stripped: no symbol table (the unstripped binary is about 139 MB).
        result = try run(["-S", usr + "/bin/lyricposter"], executable: "/usr/bin/readelf")
        XCTAssertFalse(result.stdout.contains(".symtab"), "make install strips the binary")
        XCTAssertTrue(try String(contentsOfFile: usr + "/share/zsh/site-functions/_lyricposter", encoding: .utf8).contains("#compdef lyricposter"))
        XCTAssertTrue(try String(contentsOfFile: usr + "/share/fish/vendor_completions.d/lyricposter.fish", encoding: .utf8).contains("complete -c 'lyricposter'"))
        result = try run(["-n", usr + "/share/bash-completion/completions/lyricposter"], executable: "/bin/bash")
        XCTAssertEqual(result.status, 0, "the bash completion parses: \(result.stderr)")

        // Started by name through $PATH, away from the checkout: the same bytes as the checkout's build.
        let environment = ["PATH": usr + "/bin:/usr/bin:/bin", "LYRICPOSTER_FONTS": ""]
        let installed = temp("installed.png"), checkout = temp("checkout.png")
        let arguments = ["frame", Self.package.path + "/" + cover, Self.package.path + "/" + lyrics, "--at", "0:58.5"]
        result = try run(["-c", "cd / && exec lyricposter \"$@\"", "sh"] + arguments + ["-o", installed], environment: environment,
                         executable: "/bin/sh")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = try run(arguments + ["-o", checkout], executable: release)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: installed)), try Data(contentsOf: URL(fileURLWithPath: checkout)),
                       "the installed binary renders byte-identical frames")
        result = try run(["-c", "exec lyricposter --version"], environment: environment, executable: "/bin/sh")
        for library in ["cairo", "Pango", "HarfBuzz", "libpng", "libjpeg-turbo", "libwebp", "TagLib", "ISA-L", "libdeflate"] {
            XCTAssertTrue(result.stdout.contains("  " + library + " "), "--version names \(library): \(result.stdout)")
        }

        // Every shared library it loads comes from the container's runtime packages.
        result = try run([usr + "/bin/lyricposter"], executable: Self.package.path + "/scripts/check-runtime-libs.sh")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("ok:"), result.stdout)

        result = try make(["uninstall", "PREFIX=/usr", "DESTDIR=" + stage])
        XCTAssertEqual(result.status, 0, result.stderr)
        let left = FileManager.default.enumerator(atPath: stage)?.allObjects.compactMap { $0 as? String }
            .filter { !FileManager.default.fileExists(atPath: stage + "/" + $0, isDirectory: nil) || !isFolder(stage + "/" + $0) } ?? []
        XCTAssertEqual(left, [], "uninstall removes every file install put there")
        XCTAssertFalse(FileManager.default.fileExists(atPath: usr + "/share/lyricposter"))
    }

    /// The container recipe, read (Docker is not on the test machines): the README's and the
    /// Dockerfile's run command pass `--user` (uid 10001 cannot write into a user's folder), the
    /// cache folder exists and any uid may write it, the binary is stripped, the serif CJK fonts are
    /// dropped, and the source label is not a placeholder.
    func testTheContainerRecipeRunsAsTheUserWithACacheAnyUserCanWrite() throws {
        let dockerfile = try String(contentsOfFile: Self.package.path + "/Dockerfile", encoding: .utf8)
        let readme = try String(contentsOfFile: Self.package.path + "/README.md", encoding: .utf8)
        for text in [dockerfile, readme] {
            let runs = text.split(separator: "\n").filter { $0.contains("docker run ") }
            XCTAssertFalse(runs.isEmpty)
            for line in runs { XCTAssertTrue(line.contains("--user \"$(id -u):$(id -g)\""), String(line)) }
        }
        let cache = try XCTUnwrap(dockerfile.range(of: "ENV XDG_CACHE_HOME=(\\S+)", options: .regularExpression)
            .map { String(dockerfile[$0].dropFirst("ENV XDG_CACHE_HOME=".count)) })
        XCTAssertTrue(dockerfile.contains("mkdir -p /data \(cache)"), "the cache folder is made in the image")
        XCTAssertTrue(dockerfile.contains("chmod 1777 \(cache)"), "any uid may write the cache folder")
        XCTAssertTrue(dockerfile.contains("STRIP=1"))
        XCTAssertTrue(dockerfile.contains("rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK-*.ttc"))
        XCTAssertFalse(dockerfile.contains("OWNER"))
    }

    func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
