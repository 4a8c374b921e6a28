// OpenSSL's libcrypto, for SHA-256 digests of rendered frames and of render inputs.
#include <openssl/evp.h>
