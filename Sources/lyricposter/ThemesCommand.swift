import ArgumentParser
import LyricPoster

struct ThemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themes",
        abstract: "List the built-in themes.",
        discussion: "Use one with --theme NAME, or write a theme file (JSON; see the README) and pass --theme FILE."
    )

    @OptionGroup var quietOption: QuietOptionGroup

    func run() {
        let width = Theme.builtIn.map(\.name.count).max() ?? 0
        for theme in Theme.builtIn {
            print(theme.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + theme.description)
        }
    }
}
