import PosterGraphics

/// The text colours of one song's posters, chosen from its prepared backdrop: light text on a
/// darkened backdrop (the dark scheme), or dark text on a light, frosted one (the light scheme).
public struct Palette: Hashable, Sendable {
    public enum Scheme: String, Hashable, Sendable { case dark, light }

    public var scheme: Scheme
    /// Every line's base colour (neighbours, translations and captions draw it with opacity).
    public var text: Color
    /// The current line's colour (the text colour, or an accent).
    public var current: Color
    /// What marks the second singer's lines of a duet where lines are centred (a second hue).
    public var duet: Color

    public init(scheme: Scheme = .dark, text: Color = .white, current: Color? = nil, duet: Color? = nil) {
        self.scheme = scheme
        self.text = text
        self.current = current ?? text
        self.duet = duet ?? current ?? text
    }

    /// Light text on a dark backdrop.
    public var isDark: Bool { scheme == .dark }
}
