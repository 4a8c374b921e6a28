import PosterGraphics

/// The text colours of one song's posters, chosen from its prepared backdrop: light text on a
/// darkened backdrop (the dark scheme), or dark text on a light, frosted one (the light scheme).
package struct Palette: Hashable, Sendable {
    package enum Scheme: String, Hashable, Sendable { case dark, light }

    package var scheme: Scheme
    /// Every line's base colour (neighbours, translations and captions draw it with opacity).
    package var text: Color
    /// The current line's colour (the text colour, or an accent).
    package var current: Color
    /// What marks the second singer's lines of a duet where lines are centred (a second hue).
    package var duet: Color

    package init(scheme: Scheme = .dark, text: Color = .white, current: Color? = nil, duet: Color? = nil) {
        self.scheme = scheme
        self.text = text
        self.current = current ?? text
        self.duet = duet ?? current ?? text
    }

    /// Light text on a dark backdrop.
    package var isDark: Bool { scheme == .dark }
}
