import ArgumentParser
import Foundation
import LyricPoster
import MediaTags

/// The song a command renders: `<cover> <lyrics>`, or one audio file whose tags, sidecar lyrics
/// and folder cover supply the parts (`--cover`/`--lyrics` override either).
struct SongArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("An audio file (mp3, flac, ogg, opus, m4a: its tags, sidecar lyrics and folder cover), or a cover image (PNG, JPEG, WebP) and a lyrics file (LRC, TTML, YRC, SRT, WebVTT).",
                                 valueName: "audio | cover lyrics"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The cover image to use instead of the audio file's picture or folder image.", valueName: "file"))
    var cover: String?

    @Option(help: ArgumentHelp("The lyrics file to use instead of the audio file's sidecar or tags.", valueName: "file"))
    var lyrics: String?

    func validate() throws {
        switch inputs.count {
        case 1:
            break
        case 2:
            if cover != nil || lyrics != nil {
                throw ValidationError("--cover and --lyrics go with an audio file, not with <cover> <lyrics>")
            }
        case 0:
            throw ValidationError("give an audio file, or a cover image and a lyrics file")
        default:
            throw ValidationError("too many inputs: give an audio file, or a cover image and a lyrics file")
        }
        if inputs.contains(where: \.isEmpty) || cover == "" || lyrics == "" { throw ValidationError("input paths must not be empty") }
    }

    var source: SongSource {
        inputs.count == 2 ? .files(cover: inputs[0], lyrics: inputs[1]) : .audio(inputs[0], cover: cover, lyrics: lyrics)
    }
}
