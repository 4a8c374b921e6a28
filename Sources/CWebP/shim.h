// libwebp reports errors as return codes, so Swift can call it directly (decoding covers,
// encoding WebP posters). The demux library reads
// animated WebP (its first frame is the cover).
#include <stddef.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
