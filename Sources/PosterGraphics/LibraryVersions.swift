import CCairoPango
import CCrypto
import CPNG
import CTurboJPEG
import CWebP

/// The C libraries this build was compiled against, from their headers' version macros (libwebp,
/// which has none, reports the library loaded at run time).
package enum LibraryVersions {
    package static var all: [String] {
        let webp = WebPGetDecoderVersion()
        var list = [
            "cairo " + String(cString: lp_cairo_version()),
            "Pango " + String(cString: lp_pango_version()),
            "HarfBuzz " + String(cString: lp_harfbuzz_version()),
            "fontconfig " + String(cString: lp_fontconfig_version()),
            "FreeType " + String(cString: lp_freetype_version()),
            "GLib " + String(cString: lp_glib_version()),
            "libjpeg-turbo " + String(cString: lp_jpeg_turbo_version()),
            "libwebp \((webp >> 16) & 0xff).\((webp >> 8) & 0xff).\(webp & 0xff)",
            "OpenSSL " + String(cString: lp_openssl_version()),
        ]
        var index: Int32 = 0
        while let version = lp_codec_version(index) {
            list.append(String(cString: version))
            index += 1
        }
        return list
    }
}
