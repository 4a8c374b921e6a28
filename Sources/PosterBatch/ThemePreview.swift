import Foundation
import LyricPoster
import SongSources
import LyricsCore
import PosterGraphics

/// `lyricposter themes --preview COVER`: one picture with the cover under every built-in theme,
/// side by side, each at the same instant of a short sample text (ours), labelled with its name.
package enum ThemePreview {
    /// The sample: a title, an artist and four lines, the second one being sung.
    static let sample = """
        [ti:Theme preview]
        [ar:LyricPoster]
        [00:01.00]The first line has been sung
        [00:04.00]This is the line being sung now
        [00:07.00]The next line waits its turn
        [00:10.00]And one more after it

        """
    static let instant = Timestamp(milliseconds: 5_000)

    /// The PNG of every built-in theme over `cover`, in `options`' preset (its other options apply
    /// to every theme; the theme is each one's own).
    package static func render(cover: String, options: RenderOptions) throws(PosterError) -> [UInt8] {
        let coverData = try Inputs.read(cover, limit: SongResolver.coverByteLimit(options))
        let data = Data(sample.utf8)
        let lyrics = try Inputs.lyrics(data, path: "the theme preview's sample", encoding: nil, offsetSign: .subtract)
        let themes = Theme.builtIn
        let preset = options.preset
        let grid = ContactSheet.Grid(frameWidth: preset.width, frameHeight: preset.height, count: themes.count, columns: themes.count)
        let sheet: Canvas
        do { sheet = try Canvas(width: grid.width, height: grid.height) } catch {
            throw PosterError(path: "themes --preview", reason: "\(error)")
        }
        sheet.fill(Color(red: 0.07, green: 0.07, blue: 0.08))
        let song = ResolvedSong(lyrics: lyrics, lyricsData: data, lyricsPath: "sample", lyricsSource: "sample", coverData: coverData,
                                coverPath: cover, coverSource: "file:" + (cover as NSString).lastPathComponent, audio: nil)
        var fonts: FontLibrary?
        for (n, theme) in themes.enumerated() {
            var themed = options
            themed.theme = theme
            let session = try PosterSession(song: song, options: themed, fonts: fonts)
            fonts = session.fonts
            let cell = grid.cell(n)
            let thumbnail = try session.makeRenderer().draw(session.scenes.scene(at: instant)) { (canvas, _) throws(PosterError) -> Bitmap in
                try ContactSheet.thumbnail(canvas, size: cell, for: "themes --preview")
            }
            sheet.draw(thumbnail, in: cell)
        }
        guard let fonts else { throw PosterError(path: "themes --preview", reason: "no themes") }
        do {
            let text = try TextEngine(fonts: fonts)
            let families = FontSetup.families(for: nil)
            let heading = text.layout("Themes · \((cover as NSString).lastPathComponent) · \(preset.name) \(preset.width)×\(preset.height)",
                                      style: TextStyle(families: families, size: 34, weight: 700, alignment: .left),
                                      width: Double(grid.width) - 2 * grid.gap, maxLines: 1)
            try sheet.draw(heading, at: Point(x: grid.gap, y: 14), color: .white)
            for (n, theme) in themes.enumerated() {
                let cell = grid.cell(n)
                let label = text.layout(theme.name + (n == 0 ? " (default)" : ""), style: TextStyle(families: families, size: 22, weight: 700, alignment: .left),
                                        width: cell.width, maxLines: 1)
                try sheet.draw(label, at: Point(x: cell.minX, y: cell.maxY + 6), color: Color.white.withAlpha(0.9))
            }
            return try sheet.pngData(opaque: true, compression: options.compression)
        } catch {
            throw PosterError(path: "themes --preview", reason: "\(error)")
        }
    }
}
