/// One 8-bit sRGB colour: a palette entry as a panel's driver and the PNG's PLTE chunk hold it.
package struct RGB: Hashable, Sendable {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8

    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// `#rrggbb`, as error messages and palette files spell a colour.
    package var hex: String {
        let digits = Array("0123456789abcdef")
        return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}

/// The colours an e-ink panel can show, in the order of the panel's colour indices: index `i` of a
/// quantised picture (and of the indexed PNG written from it) means `colours[i]`.
///
/// The colours are what the panel looks like, not what its driver is sent: the quantiser matches
/// the poster against them, so dull inks give a truer dither than the pure primaries would. A
/// driver that wants its own numbering maps indices itself (see `spectra6`).
package struct EInkPalette: Hashable, Sendable {
    /// How the palette is asked for (`named(_:)`), or the name a palette file was given.
    package let name: String
    /// 2 to 256 colours (a palette file: 2 to 16), index order.
    package let colours: [RGB]

    /// A palette of `colours` in index order. Traps on fewer than 2 or more than 256 colours (an
    /// indexed PNG holds at most 256); colours from a file go through `parse(_:name:)`, which
    /// throws instead.
    package init(name: String, colours: [RGB]) {
        precondition((2...256).contains(colours.count), "an e-ink palette has 2 to 256 colours, not \(colours.count)")
        self.name = name
        self.colours = colours
    }

    /// Bits per pixel of the indexed PNG: the smallest PNG palette depth (1, 2, 4, 8) that holds
    /// every index — 1 for 2 colours, 2 for up to 4, 4 for up to 16, else 8.
    package var bitDepth: Int {
        switch colours.count {
        case ...2: return 1
        case ...4: return 2
        case ...16: return 4
        default: return 8
        }
    }

    /// Pimoroni Inky Impression 7-colour (ACeP, UC8159 controller); index order black, white,
    /// green, blue, red, yellow, orange — the controller's own codes 0–6. The colours are what
    /// Pimoroni's `inky` library blends its measured inks and pure primaries to at
    /// `set_image(saturation=0.5)`, its default, so a picture dithered here matches one it dithers.
    package static let inky7 = EInkPalette(name: "inky7", colours: [
        RGB(28, 24, 28), RGB(255, 255, 255), RGB(29, 173, 35), RGB(30, 29, 174),
        RGB(205, 36, 37), RGB(231, 222, 35), RGB(216, 123, 36),
    ])

    /// E Ink Spectra 6; index order black, white, yellow, red, blue, green (inky's saturation-0.5
    /// blend for its Spectra 6 driver). The controller's codes skip 4: blue is sent as 5 and
    /// green as 6, so a driver fed these indices maps 4 → 5 and 5 → 6 (inky does the same).
    package static let spectra6 = EInkPalette(name: "spectra6", colours: [
        RGB(0, 0, 0), RGB(208, 209, 210), RGB(231, 222, 35), RGB(205, 36, 37), RGB(30, 29, 174), RGB(29, 173, 35),
    ])

    /// Four greys, black to white, evenly spaced in sRGB (2-bit greyscale panels).
    package static let gray4 = EInkPalette(name: "gray4", colours: [
        RGB(0, 0, 0), RGB(85, 85, 85), RGB(170, 170, 170), RGB(255, 255, 255),
    ])

    /// Black and white (index 0 black, 1 white).
    package static let mono = EInkPalette(name: "mono", colours: [RGB(0, 0, 0), RGB(255, 255, 255)])

    /// The built-in palettes, in the order help text lists them.
    package static let builtIn: [EInkPalette] = [.inky7, .spectra6, .gray4, .mono]

    /// The built-in palette called `name` (case-insensitive), nil for any other name.
    package static func named(_ name: String) -> EInkPalette? { builtIn.first { $0.name == name.lowercased() } }
}

// MARK: - Palette files

/// Why a palette file was refused. Each message is one line and names the line at fault.
package enum EInkPaletteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is larger than `EInkPalette.maxFileBytes`.
    case tooLarge(bytes: Int)
    /// Line `line` (1-based) is neither a colour, a comment nor blank; `text` is the line, trimmed
    /// and cut to 40 characters.
    case badColour(line: Int, text: String)
    /// Fewer than 2 colours.
    case tooFew(Int)
    /// More than 16 colours.
    case tooMany(Int)
    /// Line `line` repeats a colour an earlier line gave (two indices the quantiser could never
    /// tell apart).
    case duplicate(line: Int)

    package var description: String {
        switch self {
        case .tooLarge(let bytes):
            return "palette file is \(bytes) bytes, more than the limit of \(EInkPalette.maxFileBytes)"
        case .badColour(let line, let text):
            // debugDescription quotes the text and escapes control characters: one line, always.
            return "palette line \(line): \(text.debugDescription) is not a colour (#RRGGBB, RRGGBB or r,g,b with 0–255)"
        case .tooFew(let count):
            return "palette has \(count) colour\(count == 1 ? "" : "s"); it needs at least \(EInkPalette.fileColours.lowerBound)"
        case .tooMany(let count):
            return "palette has \(count) colours; at most \(EInkPalette.fileColours.upperBound) are allowed"
        case .duplicate(let line):
            return "palette line \(line) repeats a colour given earlier"
        }
    }
}

extension EInkPalette {
    /// The largest palette file accepted, in bytes (16 colours with comments fit many times over).
    package static let maxFileBytes = 4096
    /// How many colours a palette file may give: a 4-bit PNG and every panel sold hold 16 at most.
    package static let fileColours = 2...16

    /// Reads a palette file: one colour a line, in index order, as `#RRGGBB`, `RRGGBB` or `r,g,b`
    /// (decimal 0–255, spaces allowed around the numbers).
    ///
    /// Blank lines are skipped, as are comments: a line starting with `//`, or with `#` followed
    /// by a space, a tab or nothing (`#` and a hex digit is a colour). A colour may be followed by
    /// a `//` comment. Lines end in LF or CRLF. Refused: a file over 4096 bytes (checked before
    /// anything is read), a line that is none of these, a colour given twice, fewer than 2 or more
    /// than 16 colours.
    package static func parse(_ text: String, name: String) throws(EInkPaletteError) -> EInkPalette {
        let size = text.utf8.count
        guard size <= maxFileBytes else { throw .tooLarge(bytes: size) }
        var colours: [RGB] = []
        var seen = Set<RGB>()
        // Split on LF only: Swift's Character view would make "\r\n" one character, so CR is
        // trimmed per line below instead.
        for (offset, raw) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            let line = String(decoding: raw.prefix(upTo: commentStart(raw)), as: UTF8.self)
            let trimmed = line[...].trimmingWhitespace()
            if trimmed.isEmpty || isHashComment(trimmed) { continue }
            guard let colour = parseColour(trimmed) else {
                throw .badColour(line: lineNumber, text: String(trimmed.prefix(40)))
            }
            guard seen.insert(colour).inserted else { throw .duplicate(line: lineNumber) }
            colours.append(colour)
        }
        guard colours.count >= fileColours.lowerBound else { throw .tooFew(colours.count) }
        guard colours.count <= fileColours.upperBound else { throw .tooMany(colours.count) }
        return EInkPalette(name: name, colours: colours)
    }

    /// Where a `//` comment starts in `line`'s bytes (its end if it has none).
    private static func commentStart(_ line: Substring.UTF8View) -> Substring.UTF8View.Index {
        let slash = UInt8(ascii: "/")
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if line[index] == slash, next < line.endIndex, line[next] == slash { return index }
            index = next
        }
        return line.endIndex
    }

    /// `#` alone or followed by white space: a comment, not a colour.
    private static func isHashComment(_ line: Substring) -> Bool {
        guard line.first == "#" else { return false }
        let next = line.dropFirst().first
        return next == nil || next == " " || next == "\t"
    }

    /// The colour `text` spells (already trimmed), nil if it spells none.
    private static func parseColour(_ text: Substring) -> RGB? {
        if text.contains(",") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
            guard parts.count == 3 else { return nil }
            var values: [UInt8] = []
            for part in parts {
                // ASCII digits only, at most 3: no sign, "0x", "_" or other scripts' digits
                // reach Int's parser, which would read some of them.
                guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let value = Int(part), value <= 255 else { return nil }
                values.append(UInt8(value))
            }
            return RGB(values[0], values[1], values[2])
        }
        let digits = text.first == "#" ? text.dropFirst() : text
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        return RGB(UInt8(value >> 16), UInt8((value >> 8) & 0xff), UInt8(value & 0xff))
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...last]
    }
}

// MARK: - Panels

/// A panel sold with a known resolution and palette: the size to render the poster at and the
/// palette to quantise it to (`--eink-panel`, docs).
package struct EInkPanel: Hashable, Sendable {
    package let name: String
    /// Pixels, landscape as the panel's makers quote them.
    package let width: Int
    package let height: Int
    package let palette: EInkPalette

    package init(name: String, width: Int, height: Int, palette: EInkPalette) {
        self.name = name
        self.width = width
        self.height = height
        self.palette = palette
    }

    /// The presets, smallest first within each family.
    package static let builtIn: [EInkPanel] = [
        EInkPanel(name: "inky-impression-4", width: 640, height: 400, palette: .inky7),
        EInkPanel(name: "inky-impression-5.7", width: 600, height: 448, palette: .inky7),
        EInkPanel(name: "inky-impression-7.3", width: 800, height: 480, palette: .inky7),
        EInkPanel(name: "spectra6-7.3", width: 800, height: 480, palette: .spectra6),
        EInkPanel(name: "spectra6-13.3", width: 1600, height: 1200, palette: .spectra6),
        EInkPanel(name: "waveshare-7.5", width: 800, height: 480, palette: .mono),
    ]

    /// The preset called `name` (case-insensitive), nil for any other name.
    package static func named(_ name: String) -> EInkPanel? { builtIn.first { $0.name == name.lowercased() } }
}
