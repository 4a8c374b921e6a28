// OpenSSL's libcrypto, for SHA-256 digests of rendered frames and of render inputs.
#include <openssl/evp.h>

// The OpenSSL version of the headers this was built with (`lyricposter --version`).
#include <openssl/opensslv.h>
static inline const char *lp_openssl_version(void) { return OPENSSL_VERSION_STR; }
