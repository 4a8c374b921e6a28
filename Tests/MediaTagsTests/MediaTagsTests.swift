import Foundation
import MediaTags
import TestSupport
import XCTest

/// TagLib through the C shim: every format's lyrics, pictures and length, and hostile tags.
final class MediaTagsTests: XCTestCase {
    static let lrc = "[ti:Fixture Song]\n[00:00.50]First fixture line\n[00:01.50]Second fixture line\n[00:02.50]Third fixture line\n"
    /// A 64×64 red PNG's first bytes and the blue back cover's, told apart by their IDAT.
    static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47])

    func read(_ name: String) throws -> AudioTags { try MediaTags.read(try AudioFixtures.path(name)) }

    func assertCommon(_ tags: AudioTags, title: Bool = true, file: StaticString = #filePath, line: UInt = #line) {
        if title { XCTAssertEqual(tags.title, "Fixture Song", file: file, line: line) }
        XCTAssertEqual(Double(tags.lengthMs ?? 0), 3000, accuracy: 120, "length", file: file, line: line)
    }

    func testMP3() throws {
        let tags = try read("tagged.mp3")
        assertCommon(tags)
        XCTAssertEqual(tags.artist, "Fixture Band")
        XCTAssertEqual(tags.album, "Fixture Album")
        XCTAssertEqual(tags.lyrics, [.init(source: "uslt", text: Self.lrc)])
        XCTAssertEqual(tags.synced.map(\.ms), [400, 1400, 2400])
        XCTAssertEqual(tags.synced.map(\.text), ["First synced line", "Second synced line", "Third synced line"])
        // The front cover first, although the back cover was written first.
        XCTAssertEqual(tags.pictures.map(\.type), [3, 4])
        XCTAssertEqual(tags.pictures.first?.source, "apic")
        XCTAssertEqual(tags.pictures.first?.mime, "image/png")
        XCTAssertEqual(tags.pictures.first?.data.prefix(4), Self.pngSignature)
    }

    func testFFmpegLyricsAreATXXXFrame() throws {
        let tags = try read("txxx.mp3")
        XCTAssertEqual(tags.lyrics.map(\.source), ["txxx:USLT"])
        XCTAssertEqual(tags.lyrics.first?.text, Self.lrc)
    }

    func testFLACOggOpusAndMP4() throws {
        let flac = try read("tagged.flac")
        assertCommon(flac)
        XCTAssertEqual(flac.lyrics, [.init(source: "vorbis:LYRICS", text: Self.lrc)])
        XCTAssertEqual(flac.pictures.map(\.source), ["flac:picture"])
        XCTAssertEqual(flac.pictures.first?.type, 3)

        let ogg = try read("tagged.ogg")
        assertCommon(ogg)
        XCTAssertEqual(ogg.lyrics, [.init(source: "vorbis:LYRICS", text: Self.lrc)])
        XCTAssertEqual(ogg.pictures.map(\.source), ["vorbis:METADATA_BLOCK_PICTURE"])

        let opus = try read("tagged.opus")
        assertCommon(opus)
        XCTAssertEqual(opus.lyrics, [.init(source: "vorbis:UNSYNCEDLYRICS", text: Self.lrc)])
        XCTAssertEqual(opus.pictures.first?.data.prefix(4), Self.pngSignature)

        let m4a = try read("tagged.m4a")
        assertCommon(m4a)
        XCTAssertEqual(m4a.artist, "Fixture Band")
        XCTAssertEqual(m4a.lyrics, [.init(source: "mp4:©lyr", text: Self.lrc)])
        XCTAssertEqual(m4a.pictures.map(\.source), ["mp4:covr"])
        XCTAssertEqual(m4a.pictures.first?.mime, "image/png")
        XCTAssertNil(m4a.pictures.first?.type)
    }

    func testNoTags() throws {
        let tags = try read("bare.mp3")
        assertCommon(tags, title: false)
        XCTAssertNil(tags.title)
        XCTAssertTrue(tags.lyrics.isEmpty && tags.synced.isEmpty && tags.pictures.isEmpty)
    }

    func testHostileTagsNeverCrash() throws {
        // A truncated file, a frame size that lies, a 200 MB declared picture, a picture that is text.
        for name in ["truncated.mp3", "lying-size.mp3", "huge-apic.mp3", "text-picture.mp3"] {
            let start = Date()
            _ = try? read(name)
            XCTAssertLessThan(Date().timeIntervalSince(start), 5 * Sanitizers.allowance, name)
        }
        let text = try read("text-picture.mp3")
        XCTAssertEqual(text.pictures.count, 1, "read as bytes; the image decoder refuses it later")
        let huge = try? read("huge-apic.mp3")
        XCTAssertTrue(huge?.pictures.allSatisfy { $0.data.count < 1_000_000 } ?? true)
        // A byte limit on pictures: left out and counted.
        let limited = try MediaTags.read(try AudioFixtures.path("tagged.mp3"), maxPictureBytes: 10)
        XCTAssertTrue(limited.pictures.isEmpty)
        XCTAssertEqual(limited.picturesSkipped, 2)
    }

    func testNotAudio() throws {
        XCTAssertThrowsError(try read("not-audio.mp3")) { error in
            XCTAssertTrue("\(error)".contains("not an audio file"), "\(error)")
        }
        XCTAssertThrowsError(try MediaTags.read("/nonexistent/song.flac"))
    }
}
