#include "lp_http.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t length;
    size_t capacity;
    size_t max_bytes;
    int too_large;
} lp_buffer;

// libcurl is loaded when the first cover is fetched, not when the program starts: it brings some
// 25 libraries of its own (TLS, SSH, LDAP, Kerberos, HTTP/2…), and mapping them cost every
// command 3.6 ms of a cold start, though only `follow` ever fetches. Its headers give the types
// and constants; these are its functions.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
} lp_curl;
static char lp_curl_missing[256];

static pthread_once_t lp_curl_once = PTHREAD_ONCE_INIT;
static void lp_curl_init(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(lp_curl_missing, sizeof lp_curl_missing, "cannot load libcurl (libcurl.so.4): %s", reason ? reason : "not found");
        return;
    }
    *(void **)&lp_curl.global_init = dlsym(library, "curl_global_init");
    *(void **)&lp_curl.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&lp_curl.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&lp_curl.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&lp_curl.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&lp_curl.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&lp_curl.easy_strerror = dlsym(library, "curl_easy_strerror");
    if (!lp_curl.global_init || !lp_curl.easy_init || !lp_curl.easy_setopt || !lp_curl.easy_perform || !lp_curl.easy_getinfo ||
        !lp_curl.easy_cleanup || !lp_curl.easy_strerror) {
        snprintf(lp_curl_missing, sizeof lp_curl_missing, "libcurl.so.4 lacks the functions needed");
        lp_curl.easy_init = NULL;
        return;
    }
    lp_curl.global_init(CURL_GLOBAL_DEFAULT);
}

static size_t lp_write(char *chunk, size_t size, size_t count, void *context) {
    lp_buffer *buffer = context;
    size_t bytes = size * count;
    if (buffer->length + bytes > buffer->max_bytes) {
        buffer->too_large = 1;
        return 0;  // ends the transfer (CURLE_WRITE_ERROR)
    }
    if (buffer->length + bytes > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity * 2 : 65536;
        while (capacity < buffer->length + bytes) capacity *= 2;
        if (capacity > buffer->max_bytes) capacity = buffer->max_bytes;
        unsigned char *grown = realloc(buffer->data, capacity);
        if (!grown) return 0;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, chunk, bytes);
    buffer->length += bytes;
    return bytes;
}

int lp_http_get(const char *url, long timeout_ms, size_t max_bytes, unsigned char **data, size_t *length,
                char *error, size_t error_size) {
    pthread_once(&lp_curl_once, lp_curl_init);
    *data = NULL;
    *length = 0;
    if (!lp_curl.easy_init) {
        snprintf(error, error_size, "%s", lp_curl_missing);
        return 1;
    }
    CURL *curl = lp_curl.easy_init();
    if (!curl) {
        snprintf(error, error_size, "cannot start an HTTP client");
        return 1;
    }
    lp_buffer buffer = {NULL, 0, 0, max_bytes, 0};
    char curl_error[CURL_ERROR_SIZE] = "";
    lp_curl.easy_setopt(curl, CURLOPT_URL, url);
    lp_curl.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    lp_curl.easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    lp_curl.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    lp_curl.easy_setopt(curl, CURLOPT_MAXREDIRS, 3L);
    lp_curl.easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    lp_curl.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    lp_curl.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lp_curl.easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
    lp_curl.easy_setopt(curl, CURLOPT_USERAGENT, "lyricposter");
    lp_curl.easy_setopt(curl, CURLOPT_WRITEFUNCTION, lp_write);
    lp_curl.easy_setopt(curl, CURLOPT_WRITEDATA, &buffer);
    lp_curl.easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
    CURLcode code = lp_curl.easy_perform(curl);
    long status = 0;
    lp_curl.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    lp_curl.easy_cleanup(curl);
    if (buffer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
        snprintf(error, error_size, "larger than %zu bytes", max_bytes);
    } else if (code != CURLE_OK) {
        snprintf(error, error_size, "%s", curl_error[0] ? curl_error : lp_curl.easy_strerror(code));
    } else if (status != 200) {
        snprintf(error, error_size, "HTTP status %ld", status);
    } else {
        *data = buffer.data;
        *length = buffer.length;
        return 0;
    }
    free(buffer.data);
    return 1;
}

void lp_http_free(unsigned char *data) { free(data); }
