// zlib, for the compressed lyric formats (QQ Music's QRC and Kugou's KRC inflate their text).
#include <zlib.h>

// inflateInit is a macro that Swift cannot call; this passes the header's version and struct size.
static inline int lp_inflate_init(z_stream *stream) { return inflateInit(stream); }
