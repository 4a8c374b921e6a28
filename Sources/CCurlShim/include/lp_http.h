// A bounded HTTP(S) GET through libcurl, for cover art a player names by URL. libcurl's option
// setter is variadic, which Swift cannot call: this shim calls it and hands Swift plain values.
#ifndef LP_HTTP_H
#define LP_HTTP_H
#include <stddef.h>

// Fetches `url` (http:// or https:// only, at most 3 redirects, within `timeout_ms` in all) into
// a buffer the caller frees with lp_http_free. Returns 0 and sets *data / *length, or returns
// non-zero and writes a one-line reason into `error` (`error_size` bytes): a transfer error, an
// HTTP status other than 200, or a body over `max_bytes` (refused as soon as it is known).
int lp_http_get(const char *url, long timeout_ms, size_t max_bytes, unsigned char **data, size_t *length,
                char *error, size_t error_size);
void lp_http_free(unsigned char *data);

#endif
