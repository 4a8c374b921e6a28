import CTagLibShim

extension MediaTags {
    /// The TagLib version of the headers this was built with.
    public static var taglibVersion: String { String(cString: lp_taglib_version()) }
}
