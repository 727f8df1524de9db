// libcurl, opened with dlopen the first time the store is used (creative_curl_open), so the
// commands that never touch S3 do not map libcurl and the ~25 libraries it links at every
// start. Typed wrappers of the variadic curl_easy_setopt/curl_easy_getinfo, which Swift cannot
// call, and the write callback that collects a body into a bounded buffer.
#ifndef CREATIVE_CURL_OPTIONS_H
#define CREATIVE_CURL_OPTIONS_H
#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl.so.4 and resolves what is used, once; 1 when it is usable.
int creative_curl_open(void);
/// Why creative_curl_open failed.
const char *creative_curl_error(void);

CURLcode creative_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode creative_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode creative_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode creative_curl_set_pointer(CURL *handle, CURLoption option, void *value);
long creative_curl_response_code(CURL *handle);
/// The Content-Length of the last response, -1 when it had none.
curl_off_t creative_curl_content_length(CURL *handle);

/// A body being received: at most `limit` bytes are kept; one more aborts the transfer and sets
/// `overflowed`. Owned by the caller, released with creative_curl_body_free.
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    size_t limit;
    int overflowed;
} creative_curl_body;

/// Points the handle's write callback at `body` (CURLOPT_WRITEFUNCTION, CURLOPT_WRITEDATA).
CURLcode creative_curl_collect(CURL *handle, creative_curl_body *body);
void creative_curl_body_free(creative_curl_body *body);
#endif
