import PosterGraphics

/// An output canvas: a named size whose layout is designed for its shape.
public struct Preset: Hashable, Sendable, CustomStringConvertible {
    /// How the poster is arranged; chosen from the canvas shape (or fixed, for `classic`).
    public enum Arrangement: String, Hashable, Sendable {
        /// Tall portrait: cover card on top, title, then the lyrics below.
        case stack
        /// Near-square or 4:5: small cover card and title in a header row, lyrics below.
        case header
        /// Landscape: cover card and title on the left, lyrics on the right.
        case split
        /// The original iOS lock-screen look: full cover, rows of lyrics on half-black bands.
        case classic
    }

    public var name: String
    public var width: Int
    public var height: Int
    public var arrangement: Arrangement
    /// A phone lock screen: the system draws its clock over the top 22 % and crops the sides of
    /// tall (19.5:9) screens by about 8 % each, so text and the cover card keep clear of both.
    public var isLockScreen: Bool
    /// Where an app draws its own buttons and captions over the picture: the text and the cover
    /// card are laid out inside what is left (the background still fills the canvas).
    public var safeArea: SafeArea?

    /// Shares of the canvas kept clear at the top, at the bottom and on each side.
    public struct SafeArea: Hashable, Sendable, CustomStringConvertible {
        public var top: Double
        public var bottom: Double
        public var side: Double

        public init(top: Double, bottom: Double, side: Double) {
            self.top = top
            self.bottom = bottom
            self.side = side
        }

        /// Vertical stories (TikTok, Instagram Reels, YouTube Shorts), the strictest of the three
        /// apps' published guidance at each edge: the top 14 % (account name, search, tabs), the
        /// bottom 35 % (caption, sound, the description, the navigation bar) and 6 % on each side
        /// (the like, comment and share column's margin; TikTok's column itself sits in the
        /// bottom part).
        public static let story = SafeArea(top: 0.14, bottom: 0.35, side: 0.06)

        /// The rectangle left free on a `width`×`height` canvas.
        package func rect(width: Double, height: Double) -> Rect {
            Rect(x: (width * side).rounded(), y: (height * top).rounded(), width: (width * (1 - 2 * side)).rounded(),
                 height: (height * (1 - top - bottom)).rounded())
        }

        public var description: String { "safe:\(top),\(bottom),\(side)" }
    }

    public init(name: String, width: Int, height: Int, arrangement: Arrangement? = nil, isLockScreen: Bool = false,
                safeArea: SafeArea? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.arrangement = arrangement ?? Preset.arrangement(width: width, height: height)
        self.isLockScreen = isLockScreen
        self.safeArea = safeArea
    }

    /// Share of the height at the top kept clear on lock screens (the clock and date).
    package static let lockScreenClockShare = 0.22
    /// Share of the width kept clear on each side on lock screens (the 19.5:9 crop).
    package static let lockScreenSideShare = 0.09

    public static let lockscreen = Preset(name: "lockscreen", width: 1080, height: 1920, isLockScreen: true)
    /// A 19.5:9 phone screen at its native size (1179×2556), with the lock screen's safe area.
    public static let phone = Preset(name: "phone", width: 1179, height: 2556, isLockScreen: true)
    public static let feed = Preset(name: "feed", width: 1080, height: 1350)
    public static let square = Preset(name: "square", width: 1080, height: 1080)
    public static let landscape = Preset(name: "landscape", width: 1920, height: 1080)
    public static let classic = Preset(name: "classic", width: 480, height: 800, arrangement: .classic)
    /// A 9:16 story or short (TikTok, Reels, Shorts): 1080×1920 with the lyrics, captions and
    /// cover kept inside the apps' safe area (``SafeArea/story``).
    public static let story = Preset(name: "story", width: 1080, height: 1920, safeArea: .story)

    public static let all: [Preset] = [.lockscreen, .phone, .feed, .square, .landscape, .classic, .story]

    public static func named(_ name: String) -> Preset? { all.first { $0.name == name.lowercased() } }

    /// A custom size, arranged by its shape.
    public static func custom(width: Int, height: Int) -> Preset {
        Preset(name: "\(width)x\(height)", width: width, height: height)
    }

    static func arrangement(width: Int, height: Int) -> Arrangement {
        let ratio = Double(height) / Double(width)
        if ratio >= 1.5 { return .stack }
        if ratio >= 0.8 { return .header }
        return .split
    }

    /// The same canvas with `factor` times as many pixels each way (a 1080² card at 2 is 2160²):
    /// every size scales with it, so the picture is the same, sharper.
    public func scaled(by factor: Int) -> Preset {
        var scaled = self
        scaled.width = width * factor
        scaled.height = height * factor
        return scaled
    }

    public var description: String { "\(name) (\(width)×\(height))" }
}
