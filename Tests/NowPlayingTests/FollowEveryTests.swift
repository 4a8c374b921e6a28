import LyricPoster
import LyricsCore
import PosterLive
import XCTest

/// `follow --every`: which of a song's per-line posters are made at every line, every verse and
/// once a song, and that each one stays until the next.
final class FollowEveryTests: XCTestCase {
    static let song = """
    [00:02.00]First verse, one
    [00:05.00]First verse, two
    [00:08.00]First verse, three
    [00:11.00]
    [00:20.00]Second verse after a long gap
    [00:23.00]Second verse, two
    [00:25.00]
    [00:26.00]Third verse after a blank line
    [00:29.00]Third verse, two
    [00:33.00]
    """

    func plan() throws -> (frames: [PlannedFrame], lyrics: Lyrics) {
        let lyrics = try LRC.parse(Self.song)
        return (FramePlan.perLine(SceneBuilder(lyrics: lyrics)), lyrics)
    }

    func testEveryLineKeepsThePlan() throws {
        let (frames, lyrics) = try plan()
        XCTAssertEqual(PreparedSong.thinned(frames, every: .line, lyrics: lyrics), frames)
    }

    func testEveryVerseMakesOnePosterAtTheStartAndOneAtEachVerse() throws {
        let (frames, lyrics) = try plan()
        let verses = PreparedSong.thinned(frames, every: .verse, lyrics: lyrics)
        XCTAssertEqual(verses.first?.startMs, frames.first?.startMs, "the song's start")
        XCTAssertEqual(verses.compactMap { $0.scene.currentText },
                       ["First verse, one", "Second verse after a long gap", "Third verse after a blank line"])
        XCTAssertLessThan(verses.count, frames.count)
        // Each poster stays until the next one; the last until the end.
        for (a, b) in zip(verses, verses.dropFirst()) { XCTAssertEqual(a.endMs, b.startMs) }
        XCTAssertEqual(verses.last?.endMs, frames.last?.endMs)
        XCTAssertEqual(verses.map(\.startMs), verses.map(\.startMs).sorted())
    }

    func testEverySongMakesOnePoster() throws {
        let (frames, lyrics) = try plan()
        let once = PreparedSong.thinned(frames, every: .song, lyrics: lyrics)
        XCTAssertEqual(once.count, 1)
        XCTAssertEqual(once[0].startMs, frames[0].startMs)
        XCTAssertEqual(once[0].scene.currentText, "First verse, one", "the first verse's poster")
        XCTAssertEqual(once[0].endMs, frames.last?.endMs)
    }
}
