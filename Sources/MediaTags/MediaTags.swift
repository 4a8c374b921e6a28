import CTagLibShim

extension MediaTags {
    /// The TagLib version of the headers this was built with.
    package static var taglibVersion: String { String(cString: lp_taglib_version()) }
}
