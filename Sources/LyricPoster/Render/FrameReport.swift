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

        enum CodingKeys: String, CodingKey {
            case role, text, x, y, width, height
            case fontSize = "font_size"
            case color
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

    enum CodingKeys: String, CodingKey {
        case width, height
        case timeMs = "time_ms"
        case lineIndex = "line_index"
        case missingGlyphs = "missing_glyphs"
        case contrast
        case boxes
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
    }

    init(scene: Scene, frame: Renderer.Frame) {
        width = frame.canvas.width
        height = frame.canvas.height
        timeMs = scene.time.milliseconds
        lineIndex = scene.lineIndex
        missingGlyphs = frame.layout.missingGlyphs
        contrast = frame.contrast.map { ($0 * 100).rounded() / 100 }
        func round(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        boxes = frame.layout.blocks.map { b in
            let r = b.box
            return Box(role: b.role.rawValue, text: b.text, x: round(r.x), y: round(r.y), width: round(r.width),
                       height: round(r.height), fontSize: b.fontSize, color: b.color.hex)
        }
    }

    /// Pretty JSON with sorted keys (deterministic) with non-ASCII kept as is.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
