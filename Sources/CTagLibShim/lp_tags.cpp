// See include/lp_tags.h. TagLib does not throw on bad files, but any exception is caught here so
// that none can cross into Swift.
#include "lp_tags.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <taglib/tpropertymap.h>
#include <taglib/mpegfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/id3v2frame.h>
#include <taglib/unsynchronizedlyricsframe.h>
#include <taglib/synchronizedlyricsframe.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/textidentificationframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/xiphcomment.h>
#include <taglib/vorbisfile.h>
#include <taglib/opusfile.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mp4coverart.h>

namespace {

char *copy(const std::string &text) {
    char *out = static_cast<char *>(std::malloc(text.size() + 1));
    if (out) std::memcpy(out, text.c_str(), text.size() + 1);
    return out;
}

char *copy(const TagLib::String &text) { return copy(text.to8Bit(true)); }

struct Reader {
    lp_tags *out;
    size_t max_picture_bytes;
    size_t max_items;

    void text(const char *source, const TagLib::String &value) {
        if (value.isEmpty() || out->lyrics_count >= max_items) return;
        auto *grown = static_cast<lp_tag_text *>(std::realloc(out->lyrics, (out->lyrics_count + 1) * sizeof(lp_tag_text)));
        if (!grown) return;
        out->lyrics = grown;
        out->lyrics[out->lyrics_count++] = {copy(std::string(source)), copy(value)};
    }

    void picture(const char *source, int type, const TagLib::String &mime, const TagLib::ByteVector &data) {
        if (data.isEmpty() || out->picture_count >= max_items) return;
        if (static_cast<size_t>(data.size()) > max_picture_bytes) { out->pictures_skipped++; return; }
        auto *bytes = static_cast<unsigned char *>(std::malloc(data.size()));
        if (!bytes) return;
        std::memcpy(bytes, data.data(), data.size());
        auto *grown = static_cast<lp_tag_picture *>(std::realloc(out->pictures, (out->picture_count + 1) * sizeof(lp_tag_picture)));
        if (!grown) { std::free(bytes); return; }
        out->pictures = grown;
        out->pictures[out->picture_count++] = {copy(std::string(source)), type, copy(mime), bytes, static_cast<size_t>(data.size())};
    }

    void id3v2(TagLib::ID3v2::Tag *tag) {
        if (!tag) return;
        for (auto *frame : tag->frameList("USLT")) {
            if (auto *lyrics = dynamic_cast<TagLib::ID3v2::UnsynchronizedLyricsFrame *>(frame)) text("uslt", lyrics->text());
        }
        // ffmpeg writes `-metadata lyrics=…` as a user text frame (described `USLT`); taggers use
        // `LYRICS` or `UNSYNCEDLYRICS`.
        for (auto *frame : tag->frameList("TXXX")) {
            auto *user = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame);
            if (!user) continue;
            TagLib::String key = user->description().upper();
            if (key == "LYRICS" || key == "UNSYNCEDLYRICS" || key == "UNSYNCED LYRICS" || key == "USLT" || key.startsWith("LYRICS-")) {
                TagLib::StringList fields = user->fieldList();
                if (fields.size() >= 2) text(("txxx:" + user->description().to8Bit(true)).c_str(), fields[1]);
            }
        }
        for (auto *frame : tag->frameList("SYLT")) {
            auto *synced = dynamic_cast<TagLib::ID3v2::SynchronizedLyricsFrame *>(frame);
            if (!synced || out->sylt_count > 0) continue;
            auto list = synced->synchedText();
            size_t count = std::min(static_cast<size_t>(list.size()), max_items);
            if (count == 0) continue;
            out->sylt = static_cast<lp_sylt_entry *>(std::calloc(count, sizeof(lp_sylt_entry)));
            if (!out->sylt) continue;
            out->sylt_in_frames = synced->timestampFormat() == TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMpegFrames;
            for (const auto &entry : list) {
                if (out->sylt_count >= count) break;
                out->sylt[out->sylt_count++] = {static_cast<long long>(entry.time), copy(entry.text)};
            }
        }
        // The front cover first, then any other picture in file order.
        for (int pass = 0; pass < 2; pass++) {
            for (auto *frame : tag->frameList("APIC")) {
                auto *apic = dynamic_cast<TagLib::ID3v2::AttachedPictureFrame *>(frame);
                if (!apic) continue;
                bool front = apic->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover;
                if (front == (pass == 0)) picture("apic", static_cast<int>(apic->type()), apic->mimeType(), apic->picture());
            }
        }
    }

    void xiph(TagLib::Ogg::XiphComment *comment, const char *prefix) {
        if (!comment) return;
        const auto &fields = comment->fieldListMap();
        for (const char *key : {"LYRICS", "UNSYNCEDLYRICS", "UNSYNCED LYRICS"}) {
            auto found = fields.find(key);
            if (found == fields.end()) continue;
            for (const auto &value : found->second) text((std::string(prefix) + ":" + key).c_str(), value);
        }
        for (int pass = 0; pass < 2; pass++) {
            for (auto *pic : comment->pictureList()) {
                bool front = pic->type() == TagLib::FLAC::Picture::FrontCover;
                if (front == (pass == 0)) picture("vorbis:METADATA_BLOCK_PICTURE", static_cast<int>(pic->type()), pic->mimeType(), pic->data());
            }
        }
    }

    void read(TagLib::File *file) {
        if (auto *mpeg = dynamic_cast<TagLib::MPEG::File *>(file)) {
            id3v2(mpeg->ID3v2Tag(false));
        } else if (auto *flac = dynamic_cast<TagLib::FLAC::File *>(file)) {
            xiph(flac->xiphComment(false), "vorbis");
            for (int pass = 0; pass < 2; pass++) {
                for (auto *pic : flac->pictureList()) {
                    bool front = pic->type() == TagLib::FLAC::Picture::FrontCover;
                    if (front == (pass == 0)) picture("flac:picture", static_cast<int>(pic->type()), pic->mimeType(), pic->data());
                }
            }
            id3v2(flac->ID3v2Tag(false));
        } else if (auto *vorbis = dynamic_cast<TagLib::Ogg::Vorbis::File *>(file)) {
            xiph(vorbis->tag(), "vorbis");
        } else if (auto *opus = dynamic_cast<TagLib::Ogg::Opus::File *>(file)) {
            xiph(opus->tag(), "vorbis");
        } else if (auto *mp4 = dynamic_cast<TagLib::MP4::File *>(file)) {
            TagLib::MP4::Tag *tag = mp4->tag();
            if (tag) {
                if (tag->contains("\251lyr")) {
                    for (const auto &value : tag->item("\251lyr").toStringList()) text("mp4:\302\251lyr", value);
                }
                if (tag->contains("covr")) {
                    for (const auto &art : tag->item("covr").toCoverArtList()) {
                        const char *mime = art.format() == TagLib::MP4::CoverArt::PNG ? "image/png"
                            : art.format() == TagLib::MP4::CoverArt::JPEG ? "image/jpeg" : "";
                        picture("mp4:covr", -1, TagLib::String(mime), art.data());
                    }
                }
            }
        }
    }
};

}  // namespace

extern "C" int lp_tags_read(const char *path, size_t max_picture_bytes, size_t max_items, lp_tags *out) {
    std::memset(out, 0, sizeof(*out));
    try {
        TagLib::FileRef ref(path, true, TagLib::AudioProperties::Fast);
        if (ref.isNull() || !ref.file() || !ref.file()->isValid()) {
            std::snprintf(out->message, sizeof out->message, "not an audio file TagLib can read");
            return 1;
        }
        if (TagLib::Tag *tag = ref.tag()) {
            if (!tag->title().isEmpty()) out->title = copy(tag->title());
            if (!tag->artist().isEmpty()) out->artist = copy(tag->artist());
            if (!tag->album().isEmpty()) out->album = copy(tag->album());
        }
        auto *properties = ref.audioProperties();
        if (!properties || properties->sampleRate() <= 0) {
            std::snprintf(out->message, sizeof out->message, "no audio stream found (not an audio file?)");
            lp_tags_free(out);
            return 1;
        }
        out->length_ms = properties->lengthInMilliseconds();
        Reader reader{out, max_picture_bytes, max_items};
        reader.read(ref.file());
        return 0;
    } catch (...) {
        lp_tags_free(out);
        std::snprintf(out->message, sizeof out->message, "TagLib failed to read the tags");
        return 1;
    }
}

extern "C" void lp_tags_free(lp_tags *tags) {
    if (!tags) return;
    std::free(tags->title);
    std::free(tags->artist);
    std::free(tags->album);
    for (size_t i = 0; i < tags->lyrics_count; i++) { std::free(tags->lyrics[i].source); std::free(tags->lyrics[i].text); }
    std::free(tags->lyrics);
    for (size_t i = 0; i < tags->sylt_count; i++) std::free(tags->sylt[i].text);
    std::free(tags->sylt);
    for (size_t i = 0; i < tags->picture_count; i++) {
        std::free(tags->pictures[i].source);
        std::free(tags->pictures[i].mime);
        std::free(tags->pictures[i].data);
    }
    std::free(tags->pictures);
    char message[sizeof tags->message];
    std::memcpy(message, tags->message, sizeof message);
    std::memset(tags, 0, sizeof(*tags));
    std::memcpy(tags->message, message, sizeof message);
}

#include <taglib/taglib.h>
#define LP_TAGLIB_STR_(x) #x
#define LP_TAGLIB_STR(x) LP_TAGLIB_STR_(x)

extern "C" const char *lp_taglib_version(void) {
    return LP_TAGLIB_STR(TAGLIB_MAJOR_VERSION) "." LP_TAGLIB_STR(TAGLIB_MINOR_VERSION) "." LP_TAGLIB_STR(TAGLIB_PATCH_VERSION);
}
