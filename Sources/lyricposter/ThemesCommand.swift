import ArgumentParser
import Foundation
import LyricPoster
import LyricsCore
import PosterBatch

struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the built-in themes, or preview them all on a cover.",
        discussion: """
            Use one with --theme NAME, or write a theme file (JSON; see docs/themes.md) and pass --theme FILE.
            Examples: lyricposter themes --json
                      lyricposter themes --preview cover.jpg -o themes.png

            Theme files are JSON that start from a built-in theme ("base", default card) and \
            override the keys they name: name, description, layout (card, classic, immersive, minimal, \
            block), background {style (blurred-cover, cover, gradient, solid), blur, brightness, saturation, \
            scrim [top, middle, bottom]}, scheme (auto, dark, light), card {show, radius}, sizes {current, \
            neighbour, translation, title, artist}, weights {current, neighbour}, font, colors {text, accent}, \
            opacity {neighbour, falloff, translation, artist}, depth_blur, lines {before, after}, align (auto, \
            left, center), margin, shadow {radius, opacity}, show {title, artist, album, progress, \
            line_progress}. An unknown key is an error that names it.
            """
    )

    @Flag(help: "The themes as JSON: name, description, layout, and which is the default.")
    var json = false

    @Option(help: ArgumentHelp("Draw every theme over this cover, side by side, into one PNG.", valueName: "cover"),
            completion: .file(extensions: ["png", "jpg", "jpeg", "webp"]))
    var preview: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The preview's PNG (default: <cover name>-themes.png here).", valueName: "file"),
            completion: .file(extensions: ["png"]))
    var output: String?

    @Option(help: ArgumentHelp("The preview's canvas preset: \(Preset.all.map(\.name).joined(separator: ", ")). (default: lockscreen)", valueName: "name"),
            completion: .list(Completions.presets))
    var preset: String?

    @OptionGroup var quietOption: QuietOptionGroup

    func validate() throws {
        if preview == nil, output != nil || preset != nil { throw ValidationError("-o and --preset go with --preview COVER") }
        if preview != nil, json { throw ValidationError("--json lists the themes; --preview draws them: give one") }
        if let preset, Preset.named(preset) == nil {
            throw ValidationError("unknown preset '\(preset)' (choose from \(Preset.all.map(\.name).joined(separator: ", ")))")
        }
        if let output, output.isEmpty { throw ValidationError("-o needs a path") }
    }

    func run() throws {
        if let preview {
            var options = RenderOptions()
            options.backdropCache = BackdropCache.defaultFolder
            if let preset { options.preset = Preset.named(preset) ?? options.preset }
            let out = output ?? (((preview as NSString).lastPathComponent as NSString).deletingPathExtension + "-themes.png")
            if OutputFile.sameFile(out, preview) { throw fail(PosterError(path: out, reason: "would overwrite the cover")) }
            do {
                let png = try ThemePreview.render(cover: preview, options: options)
                try OutputFile.writeAtomically(png, to: out)
            } catch {
                throw fail(error)
            }
            if !Quiet.isOn { print(out) }
            return
        }
        if json {
            let entries = Theme.builtIn.enumerated().map { n, theme in
                "  {\"name\": \(JSONText.quoted(theme.name)), \"description\": \(JSONText.quoted(theme.description)), "
                    + "\"layout\": \(JSONText.quoted(theme.layout.rawValue)), \"default\": \(n == 0)}"
            }
            print("[\n" + entries.joined(separator: ",\n") + "\n]")
            return
        }
        let width = Theme.builtIn.map(\.name.count).max() ?? 0
        for theme in Theme.builtIn {
            print(theme.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + theme.description)
        }
    }
}
