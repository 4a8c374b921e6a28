import Foundation

/// The fonts this folder holds, as a package resource: a program that depends on the
/// `LyricPoster` product finds them in its own build, with no path into this checkout.
package enum BundledFonts {
    /// The folder of the fonts (`NotoSans-Regular.ttf`, …), or nil when this build's resource
    /// bundle is not beside the running program (an installed binary finds its fonts in
    /// `share/lyricposter/fonts` instead).
    package static var folder: String? {
        // `Bundle.module` stops the program when its bundle is missing, so it is asked only once
        // the bundle is known to be there, beside the program as SwiftPM builds it.
        let name = "LyricPoster_BundledFonts.resources"
        let beside = Bundle.main.bundleURL.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: beside) || Bundle.main.path(forResource: "LyricPoster_BundledFonts", ofType: "resources") != nil
        else { return nil }
        return Bundle.module.resourcePath
    }
}
