import Foundation
import LyricsCore
import XCTest
@testable import LyricPoster
import SongSources

/// The cover decoded while the command line is parsed (`CoverHeadStart`): taken only by a session
/// whose cover bytes, limits and decoded size are the guessed ones, and the frame the same bytes
/// whether it was taken or not.
final class CoverHeadStartTests: CLITestCase {
    let at = Timestamp(milliseconds: 20_000)

    func options(_ change: (inout RenderOptions) -> Void = { _ in }) -> RenderOptions {
        var options = RenderOptions()
        options.backdropCache = false
        change(&options)
        return options
    }

    /// The frame at `at` and whether the guess was taken (its stage in the timings).
    func render(cover: String, options: RenderOptions) throws -> (png: [UInt8], tookGuess: Bool) {
        let timings = Timings()
        let session = try PosterSession(source: .files(cover: cover, lyrics: lyrics), options: options, timings: timings,
                                        oneFrame: true, firstFrameAt: at)
        let png = try session.render(at: at).png
        return (png, timings.stages.contains { $0.0 == "decode ahead" })
    }

    /// The environment the cache folder is found from, set aside while each test runs in-process
    /// with a cache folder of its own (empty; the user's may hold these covers' backdrops).
    private var savedEnvironment: [(String, String?)] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        savedEnvironment = ["XDG_CACHE_HOME", "LYRICPOSTER_NO_CACHE"].map { ($0, ProcessInfo.processInfo.environment[$0]) }
        setenv("XDG_CACHE_HOME", cacheHome, 1)
        unsetenv("LYRICPOSTER_NO_CACHE")
    }

    override func tearDownWithError() throws {
        // A guess a failing test left behind must not reach the next test's session.
        _ = CoverHeadStart.take(Data(), limits: RenderOptions().limits, minimumSize: (0, 0))
        for (name, value) in savedEnvironment {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        try super.tearDownWithError()
    }

    func testAGuessTakenGivesTheSameFrame() throws {
        let plain = try render(cover: cover, options: options())
        XCTAssertFalse(plain.tookGuess)

        // The first candidate that is a picture is the one read: not the lyrics, not a missing file.
        CoverHeadStart.begin(candidates: [lyrics, temp("missing.jpg"), cover])
        XCTAssertTrue(CoverHeadStart.isPending)
        let guessed = try render(cover: cover, options: options())
        XCTAssertTrue(guessed.tookGuess, "the session decodes the cover again instead of taking the guess")
        XCTAssertFalse(CoverHeadStart.isPending)
        XCTAssertEqual(guessed.png, plain.png)

        // Taken once: the next session decodes for itself.
        XCTAssertFalse(try render(cover: cover, options: options()).tookGuess)
    }

    func testAWrongGuessIsDroppedAndTheCoverDecodedAsAlways() throws {
        // Another picture: taken for the cover, it would show.
        let other = fixture("baseline.jpg")
        let plain = try render(cover: cover, options: options())
        CoverHeadStart.begin(candidates: [other])
        let wrongFile = try render(cover: cover, options: options())
        XCTAssertFalse(wrongFile.tookGuess)
        XCTAssertFalse(CoverHeadStart.isPending, "a guess that was not taken is given up, not kept")
        XCTAssertEqual(wrongFile.png, plain.png)

        // The same bytes at another decoded size (a preset whose card is larger), or under other
        // limits. A preset decoded at the default size takes the guess, rightly.
        let sizes = [Preset.square, .feed, .landscape, .phone].map { preset in options { $0.preset = preset } }
        let defaultSize = PosterSession.coverSize(options())
        let larger = try XCTUnwrap(sizes.first { PosterSession.coverSize($0) != defaultSize })
        let largerPlain = try render(cover: cover, options: larger)
        CoverHeadStart.begin(candidates: [cover])
        let otherSize = try render(cover: cover, options: larger)
        XCTAssertFalse(otherSize.tookGuess)
        XCTAssertEqual(otherSize.png, largerPlain.png)
        if let same = sizes.first(where: { PosterSession.coverSize($0) == defaultSize }) {
            let samePlain = try render(cover: cover, options: same)
            CoverHeadStart.begin(candidates: [cover])
            let sameSize = try render(cover: cover, options: same)
            XCTAssertTrue(sameSize.tookGuess)
            XCTAssertEqual(sameSize.png, samePlain.png)
        }

        let limited = options { $0.limits.maxPixels = 50_000_000 }
        CoverHeadStart.begin(candidates: [cover])
        XCTAssertFalse(try render(cover: cover, options: limited).tookGuess)

        // Begun twice, the first guess stands.
        CoverHeadStart.begin(candidates: [cover])
        CoverHeadStart.begin(candidates: [other])
        XCTAssertTrue(try render(cover: cover, options: options()).tookGuess)
    }

    /// A backdrop already cached for the default options: the guess reads only the cover's head
    /// (its size and first bytes name the cache's slot) and decodes nothing (the session will load
    /// the backdrop instead), so a warm run loses no core and no second read to it.
    func testNoGuessIsDecodedWhenTheBackdropIsCached() throws {
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: cover)[.size] as? Int)
        XCTAssertGreaterThan(size, BackdropCache.quickPrefix)
        CoverHeadStart.begin(candidates: [cover])
        let cold = try render(cover: cover, options: options { $0.backdropCache = true })
        XCTAssertTrue(cold.tookGuess, "nothing cached yet: the guess is decoded and taken")
        XCTAssertEqual(CoverHeadStart.bytesRead.withLock { $0 }, size, "a cover not cached is read whole")
        let stored = try FileManager.default.contentsOfDirectory(atPath: cacheHome + "/lyricposter/backdrops").filter { !$0.hasPrefix(".") }
        XCTAssertEqual(stored, [BackdropCache.key(cover: try Data(contentsOf: URL(fileURLWithPath: cover)), options: options())])

        // Cached now: a session that decodes anyway (its own cache turned off) finds no guess made.
        CoverHeadStart.begin(candidates: [cover])
        let warm = try render(cover: cover, options: options())
        XCTAssertFalse(warm.tookGuess)
        XCTAssertEqual(CoverHeadStart.bytesRead.withLock { $0 }, BackdropCache.quickPrefix, "a cached cover is read past its head")
        XCTAssertEqual(warm.png, cold.png)


        // Another cover of the same size and head names the same slot, so the guess reads only its
        // head and decodes nothing; the session, which checks the whole cover's digest against
        // the entry's, decodes it itself: the frame is the one drawn with no cache at all.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cover))
        bytes[bytes.count - 1000] ^= 0x01
        let twin = temp("twin.jpg")
        try bytes.write(to: URL(fileURLWithPath: twin))
        func outcome(_ options: RenderOptions) -> [UInt8] {
            do { return try render(cover: twin, options: options).png } catch { return Array("\(error)".utf8) }
        }
        let uncached = outcome(options())
        CoverHeadStart.begin(candidates: [twin])
        XCTAssertEqual(outcome(options { $0.backdropCache = true }), uncached)
        XCTAssertEqual(CoverHeadStart.bytesRead.withLock { $0 }, BackdropCache.quickPrefix)
    }

    func testCandidatesThatCannotBeReadOrDecodedChangeNothing() throws {
        let empty = temp("empty.jpg")
        FileManager.default.createFile(atPath: empty, contents: Data())
        let truncated = temp("truncated.jpg")
        try Data(contentsOf: URL(fileURLWithPath: cover)).prefix(2000).write(to: URL(fileURLWithPath: truncated))
        let corrupt = fixture("corrupt.jpg")

        // Nothing that is a picture: no guess is made, and the session is as always.
        CoverHeadStart.begin(candidates: ["-", work.path, empty, lyrics])
        let plain = try render(cover: cover, options: options())
        XCTAssertFalse(plain.tookGuess)

        // A picture's signature on bytes that do not decode: the session decodes them itself and
        // reports its own error, the same as without a guess.
        for bad in [corrupt, truncated] {
            func failure() -> String {
                do {
                    _ = try render(cover: bad, options: options())
                    return "no error"
                } catch { return "\(error)" }
            }
            let unguessed = failure()
            CoverHeadStart.begin(candidates: [bad])
            XCTAssertEqual(failure(), unguessed, bad)
            XCTAssertFalse(CoverHeadStart.isPending)
        }
    }

    /// From the command line: the default options take the guess (`decode ahead` in the timings),
    /// an option that may change the decoded size makes none, and the frame is the same bytes as
    /// one drawn without a guess (inputs after `--` are never guessed at).
    func testTheCommandLineGuessesOnlyWhereItCanBeRight() throws {
        let environment = ["LYRICPOSTER_NO_CACHE": "1"]
        let guessed = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("guessed.png"), "--timings"], environment: environment)
        XCTAssertEqual(guessed.status, 0, guessed.stderr)
        XCTAssertTrue(guessed.stderr.contains("decode ahead"), guessed.stderr)

        let unguessed = try run(["frame", "--at", "0:20", "-o", temp("unguessed.png"), "--timings", "--", cover, lyrics], environment: environment)
        XCTAssertEqual(unguessed.status, 0, unguessed.stderr)
        XCTAssertFalse(unguessed.stderr.contains("decode ahead"), unguessed.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: temp("guessed.png"))),
                       try Data(contentsOf: URL(fileURLWithPath: temp("unguessed.png"))))

        let sized = try run(["frame", cover, lyrics, "--at", "0:20", "-o", temp("sized.png"), "--size", "540x960", "--timings"],
                            environment: environment)
        XCTAssertEqual(sized.status, 0, sized.stderr)
        XCTAssertFalse(sized.stderr.contains("decode ahead"), sized.stderr)

        // The output named before the inputs is never read as the cover, even when it is a picture.
        let named = try run(["frame", "-o", temp("guessed.png"), cover, lyrics, "--at", "0:20", "--timings"], environment: environment)
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stderr.contains("decode ahead"), named.stderr)
    }
}
