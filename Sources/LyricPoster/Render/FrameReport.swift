import Foundation
import LyricsCore

/// What `frame --report` writes: the frame's size and time and every text block drawn, in
/// output pixels.
public struct FrameReport: Codable, Equatable, Sendable {
    public struct Box: Codable, Equatable, Sendable {
        public var role: String
        public var text: String
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public var fontSize: Double
        public var color: String
        /// The text did not fit even at its smallest size and was cut (it fades out at the end).
        public var cut: Bool
        /// Wrapped lines drawn.
        public var lines: Int

        enum CodingKeys: String, CodingKey {
            case role, text, x, y, width, height
            case fontSize = "font_size"
            case color, cut, lines
        }

        package init(role: String, text: String, x: Double, y: Double, width: Double, height: Double, fontSize: Double,
                    color: String, cut: Bool, lines: Int) {
            self.role = role; self.text = text; self.x = x; self.y = y; self.width = width; self.height = height
            self.fontSize = fontSize; self.color = color; self.cut = cut; self.lines = lines
        }

        /// Reads boxes of manifests written before `cut` and `lines` existed, too.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(role: try c.decode(String.self, forKey: .role), text: try c.decode(String.self, forKey: .text),
                      x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y),
                      width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height),
                      fontSize: try c.decode(Double.self, forKey: .fontSize), color: try c.decode(String.self, forKey: .color),
                      cut: try c.decodeIfPresent(Bool.self, forKey: .cut) ?? false,
                      lines: try c.decodeIfPresent(Int.self, forKey: .lines) ?? 1)
        }
    }

    public var width: Int
    public var height: Int
    public var timeMs: Int
    public var lineIndex: Int?
    public var missingGlyphs: Int
    /// Measured WCAG contrast of the current line against the brightest pixel behind it.
    public var contrast: Double?
    public var boxes: [Box]
    /// Lowest measured contrast per role (see `Renderer.Frame.contrasts`), rounded to 0.01.
    public var contrasts: [String: Double]
    /// The text scheme: "dark" (light text on a darkened backdrop) or "light" (dark text on a light one).
    public var scheme: String
    /// Lines before and after the current one that were asked for but did not fit (not in JSON).
    public var droppedBefore = 0
    public var droppedAfter = 0
    /// A card whose chosen lines did not fit whole (not in JSON; the card is refused).
    public var overflow = false
    /// Where a card's QR code is, in pixels (`qr` in JSON, absent without one).
    public var qr: Box?

    enum CodingKeys: String, CodingKey {
        case width, height
        case timeMs = "time_ms"
        case lineIndex = "line_index"
        case missingGlyphs = "missing_glyphs"
        case contrast
        case boxes
        case scheme
        case contrasts
        case qr
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(timeMs, forKey: .timeMs)
        try c.encode(lineIndex, forKey: .lineIndex)  // null, not omitted
        try c.encode(missingGlyphs, forKey: .missingGlyphs)
        try c.encode(contrast, forKey: .contrast)
        try c.encode(boxes, forKey: .boxes)
        try c.encode(scheme, forKey: .scheme)
        try c.encode(contrasts, forKey: .contrasts)
        try c.encodeIfPresent(qr, forKey: .qr)
    }

    init(scene: Scene, frame: Renderer.Frame) {
        scheme = frame.scheme.rawValue
        width = frame.canvas.width
        height = frame.canvas.height
        timeMs = scene.time.milliseconds
        lineIndex = scene.lineIndex
        missingGlyphs = frame.layout.missingGlyphs
        contrast = frame.contrast.map { ($0 * 100).rounded() / 100 }
        contrasts = frame.contrasts.mapValues { ($0 * 100).rounded() / 100 }
        func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        func count(_ role: Scene.Role) -> (asked: Int, drawn: Int) {
            (scene.lines.filter { $0.role == role }.count, frame.layout.blocks.filter { $0.role == role }.count)
        }
        let before = count(.previous), after = count(.next)
        droppedBefore = max(0, before.asked - before.drawn)
        droppedAfter = max(0, after.asked - after.drawn)
        overflow = frame.layout.overflow
        qr = frame.layout.qr.map { r in
            Box(role: "qr", text: "", x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height), fontSize: 0,
                color: "#000000FF", cut: false, lines: 0)
        }
        boxes = frame.layout.blocks.map { b in
            let r = b.box
            return Box(role: b.role.rawValue, text: b.text, x: round(r.x), y: round(r.y), width: round(r.width),
                       height: round(r.height), fontSize: b.fontSize, color: b.color.hex, cut: b.cut, lines: b.lines)
        }
    }

    /// Pretty JSON with sorted keys (deterministic) with non-ASCII kept as is.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
