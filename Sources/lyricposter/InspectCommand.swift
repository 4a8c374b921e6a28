import ArgumentParser
import Foundation
import LyricPoster
import SongSources
import LyricsCore
import MediaTags

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the parsed lyrics as JSON (or a table with --text)."
    )

    @OptionGroup var quietOption: QuietOptionGroup

    @Argument(help: ArgumentHelp("The lyrics (LRC, TTML, YRC, SRT or WebVTT), or an audio file (its sidecar or embedded lyrics).", valueName: "lyrics | audio"),
              completion: .file(extensions: Completions.lyrics + Completions.audio))
    var lyrics: String

    @Option(name: .customLong("lyrics"), help: ArgumentHelp("With an audio file: the lyrics file to use instead of its sidecar or tags.", valueName: "file"))
    var lyricsOverride: String?

    @OptionGroup var lookup: LyricsPlacesOptions

    @Option(help: ArgumentHelp("Lyrics format: lrc, ttml, yrc, srt, vtt, qrc, krc, lys, lyl, lqe, eslrc, ass or lyricsfile (detected from the content when omitted).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Text encoding of the lyrics file; detected when omitted.", valueName: "name"))
    var encoding: String?

    @Flag(help: "Print a human-readable table instead of JSON.")
    var text = false

    @Option(name: .customLong("offset-sign"), help: ArgumentHelp("How [offset:] applies: subtract or add.", valueName: "sign"))
    var offsetSign: String = "subtract"

    @Option(name: .customLong("translation-lang"), help: ArgumentHelp("Which translation is the line's `translation` when the lyrics carry several languages; default: your locale's, else the file's first.", valueName: "tag"))
    var translationLang: String?

    func validate() throws {
        try lookup.checkFolders()
        guard ["subtract", "add"].contains(offsetSign) else { throw ValidationError("--offset-sign must be subtract or add") }
        try validateFormat(format)
        if let encoding, TextDecoding.canonicalName(for: encoding) == nil {
            throw ValidationError("unknown encoding '\(encoding)' (known: \(TextDecoding.knownEncodings.joined(separator: ", ")))")
        }
    }

    func run() throws {
        if MediaTags.isAudioFile(lyrics) {
            var options = RenderOptions()
            options.format = format.flatMap(LyricsFormat.init(rawValue:))
            options.encoding = encoding
            options.offsetSign = offsetSign == "add" ? .add : .subtract
            options.translationLanguage = translationLang
            do {
                if text {
                    let song = try SongResolver.resolve(.audio(lyrics, cover: nil, lyrics: lyricsOverride), options: options,
                                                        places: lookup.places, needCover: false)
                    print("source    lyrics: \(song.lyricsSource), cover: \(song.coverSource.isEmpty ? "none" : song.coverSource)")
                    print(song.lyrics.inspectTable(), terminator: "")
                } else {
                    print(try SongResolver.inspectJSON(audio: lyrics, lyrics: lyricsOverride, options: options, places: lookup.places))
                }
            } catch {
                throw fail(error)
            }
            return
        }
        if lyricsOverride != nil { throw fail(PosterError(path: lyrics, reason: "--lyrics goes with an audio file")) }
        let data: Data
        do { data = try Inputs.read(lyrics, limit: 16 * 1024 * 1024) } catch { throw fail(error) }
        do throws(LyricsError) {
            let parsed = try LyricsReader.load(data, format: format.flatMap(LyricsFormat.init(rawValue:)), encoding: encoding,
                                               options: ReadOptions(offsetSign: offsetSign == "add" ? .add : .subtract,
                                                                    translationLanguage: translationLang ?? ReadOptions.localeLanguage))
            parsed.notes.forEach { warn("\(lyrics): \($0)") }
            print(text ? parsed.inspectTable() : parsed.inspectJSON(), terminator: text ? "" : "\n")
        } catch .noTimedLines {
            // Lyrics without times are still lyrics: shown as unsynchronised, as an audio file's are.
            // (Not a forced format that did not fit, nor markup: those stay errors.)
            guard format == nil, let decoded = try? TextDecoding.decode(data, forcing: encoding),
                  decoded.text.first(where: { !$0.isWhitespace }).map({ !"<{".contains($0) }) ?? false else {
                throw fail(.lyrics(path: lyrics, .noTimedLines))
            }
            note("\(lyrics): no timed lines, shown as unsynchronised lyrics (a poster needs times)")
            if text {
                let lines = decoded.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                print("unsynced  \(lines.count) lines (no times)")
                lines.forEach { print("          " + $0) }
            } else {
                print("{\n  \"format\": \"text\",\n  \"encoding\": \(JSONText.quoted(decoded.encoding)),\n  \"unsynced\": \(JSONText.quoted(decoded.text)),\n  \"lines\": []\n}")
            }
        } catch {
            throw fail(.lyrics(path: lyrics, error))
        }
    }
}
