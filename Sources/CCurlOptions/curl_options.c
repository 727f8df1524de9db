#include "curl_options.h"
#include <stdlib.h>
#include <string.h>

CURLcode creative_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

long creative_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

curl_off_t creative_curl_content_length(CURL *handle) {
    curl_off_t length = -1;
    if (curl_easy_getinfo(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) != CURLE_OK) return -1;
    return length;
}

static size_t creative_curl_write(char *data, size_t size, size_t count, void *user) {
    creative_curl_body *body = user;
    size_t length = size * count;
    if (length > body->limit - body->length) {
        body->overflowed = 1;
        return 0;  // CURLE_WRITE_ERROR: the transfer stops here
    }
    if (body->length + length > body->capacity) {
        size_t capacity = body->capacity ? body->capacity : 65536;
        while (capacity < body->length + length) capacity *= 2;
        if (capacity > body->limit) capacity = body->limit;
        unsigned char *grown = realloc(body->bytes, capacity);
        if (!grown) return 0;
        body->bytes = grown;
        body->capacity = capacity;
    }
    memcpy(body->bytes + body->length, data, length);
    body->length += length;
    return length;
}

CURLcode creative_curl_collect(CURL *handle, creative_curl_body *body) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, creative_curl_write);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, body);
}

void creative_curl_body_free(creative_curl_body *body) {
    free(body->bytes);
    body->bytes = NULL;
    body->length = body->capacity = 0;
}
