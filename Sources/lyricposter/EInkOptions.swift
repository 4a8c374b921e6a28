import ArgumentParser
import Foundation
import LyricPoster
import PosterGraphics

/// `--palette` and `--panel`: pictures for e-ink panels (an indexed PNG of the panel's colours).
struct EInkOptionGroup: ParsableArguments {
    @Option(help: ArgumentHelp("Write the picture for an e-ink panel: an indexed PNG of these colours (\(EInkPalette.builtIn.map(\.name).joined(separator: ", ")), or a palette file of up to 16 colours, one #RRGGBB a line), the pictures dithered and the text crisp. The theme defaults to paper.", valueName: "name|file"),
            completion: .list(EInkPalette.builtIn.map(\.name)))
    var palette: String?

    @Option(help: ArgumentHelp("An e-ink panel: its size and colours (\(EInkPanel.builtIn.map(\.name).joined(separator: ", "))).", valueName: "name"),
            completion: .list(EInkPanel.builtIn.map(\.name)))
    var panel: String?

    var isOn: Bool { palette != nil || panel != nil }

    func validate() throws {
        if let panel, EInkPanel.named(panel) == nil {
            throw ValidationError("unknown panel '\(panel)' (choose from \(EInkPanel.builtIn.map(\.name).joined(separator: ", ")))")
        }
        if let palette, palette.isEmpty { throw ValidationError("--palette needs a name or a file") }
        if let palette, EInkPalette.named(palette) == nil, !Inputs.exists(palette) {
            throw ValidationError("--palette \(palette): no such file; a palette file, or one of \(EInkPalette.builtIn.map(\.name).joined(separator: ", "))")
        }
    }

    /// The checks that need the other groups: a panel sets the canvas, and an indexed PNG is a PNG.
    func validate(render: RenderOptionGroup, output: String?, alpha: Bool) throws {
        guard isOn else { return }
        if panel != nil, render.preset != nil || render.size != nil {
            throw ValidationError("--panel sets the canvas: leave out --preset and --size")
        }
        if let output, output != "-", PictureFormat(path: output) != .png {
            throw ValidationError("--palette and --panel write an indexed PNG: give -o a .png name")
        }
        if alpha { throw ValidationError("--alpha and --palette cannot be used together: an e-ink picture is opaque") }
    }

    /// The palette to write in: `--palette`'s (a file read and checked, its errors naming it), else
    /// the panel's; nil for an ordinary picture.
    func resolvedPalette() throws(PosterError) -> EInkPalette? {
        if let palette {
            if let named = EInkPalette.named(palette) { return named }
            let data = try Inputs.read(palette, limit: EInkPalette.maxFileBytes + 1)
            guard data.count <= EInkPalette.maxFileBytes else {
                throw PosterError(path: palette, reason: "a palette file of more than \(EInkPalette.maxFileBytes) bytes")
            }
            guard let text = String(data: data, encoding: .utf8) else { throw PosterError(path: palette, reason: "not UTF-8 text") }
            do throws(EInkPaletteError) {
                return try EInkPalette.parse(text, name: (palette as NSString).lastPathComponent)
            } catch {
                throw PosterError(path: palette, reason: "\(error)")
            }
        }
        return panel.flatMap(EInkPanel.named)?.palette
    }

    /// The render options for an e-ink picture: the panel's canvas, no karaoke fill (a panel
    /// shows lines whole), paper unless a theme is named.
    func renderOptions(_ render: RenderOptionGroup, karaoke: Bool) throws(PosterError) -> RenderOptions {
        guard isOn else { return try render.renderOptions(karaoke: karaoke) }
        var options = try render.renderOptions(karaoke: false, defaultTheme: Theme.paper.name)
        if let panel = panel.flatMap(EInkPanel.named) { options.preset = .custom(width: panel.width, height: panel.height) }
        return options
    }
}
