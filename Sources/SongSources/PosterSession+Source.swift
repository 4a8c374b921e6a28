import Foundation
import LyricPoster
import LyricsCore

extension PosterSession {
    package convenience init(cover coverPath: String, lyrics lyricsPath: String, options: RenderOptions,
                            timings: Timings = Timings()) throws(PosterError) {
        try self.init(source: .files(cover: coverPath, lyrics: lyricsPath), options: options, timings: timings)
    }

    /// - Parameter oneFrame: the caller renders one picture (`frame`, `card`).
    /// - Parameter firstFrameAt: the instant of the first frame the caller will ask for, if known:
    ///   its lines are the ones shaped while the backdrop is made.
    /// - Parameter places: where an audio file's lyrics are looked for beyond the file itself.
    package convenience init(source: SongSource, options: RenderOptions, places: LyricsPlaces = LyricsPlaces(), timings: Timings = Timings(),
                            oneFrame: Bool = false, firstFrameAt: Timestamp? = nil) throws(PosterError) {
        // Cover and lyrics files: the cover is read first, so that its backdrop is made while the
        // lyrics are read and parsed. A lyrics error is still the one reported when both files
        // are bad.
        if case .files(let coverPath, let lyricsPath) = source {
            let coverRead = Result { () throws(PosterError) -> Data in try SongResolver.readCover(coverPath, options: options) }
            try self.init(cover: coverRead.map { PosterSession.CoverBytes(data: $0, path: coverPath) }, song: { () throws(PosterError) in
                try timings.measure("lyrics") { () throws(PosterError) in
                    try SongResolver.files(cover: coverPath, lyrics: lyricsPath, options: options) { () throws(PosterError) in
                        try coverRead.get()
                    }
                }
            }, options: options, timings: timings, oneFrame: oneFrame, firstFrameAt: firstFrameAt)
            return
        }
        let song = try timings.measure("lyrics") { () throws(PosterError) in try SongResolver.resolve(source, options: options, places: places) }
        try self.init(song: song, options: options, timings: timings, oneFrame: oneFrame, firstFrameAt: firstFrameAt)
    }
}
