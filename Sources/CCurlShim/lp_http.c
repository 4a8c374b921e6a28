#include "lp_http.h"

#include <curl/curl.h>
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

static pthread_once_t lp_curl_once = PTHREAD_ONCE_INIT;
static void lp_curl_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

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
    CURL *curl = curl_easy_init();
    if (!curl) {
        snprintf(error, error_size, "cannot start an HTTP client");
        return 1;
    }
    lp_buffer buffer = {NULL, 0, 0, max_bytes, 0};
    char curl_error[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 3L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "lyricposter");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, lp_write);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &buffer);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_error);
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    if (buffer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
        snprintf(error, error_size, "larger than %zu bytes", max_bytes);
    } else if (code != CURLE_OK) {
        snprintf(error, error_size, "%s", curl_error[0] ? curl_error : curl_easy_strerror(code));
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
