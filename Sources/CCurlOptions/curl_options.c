/* The body collector: curl calls it with each piece of a response body. */
#include "curl_options.h"
#include <stdlib.h>
#include <string.h>

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
    CURLcode code = creative_curl_set_pointer(handle, CURLOPT_WRITEFUNCTION, (void *)creative_curl_write);
    if (code != CURLE_OK) return code;
    return creative_curl_set_pointer(handle, CURLOPT_WRITEDATA, body);
}

void creative_curl_body_free(creative_curl_body *body) {
    free(body->bytes);
    body->bytes = NULL;
    body->length = body->capacity = 0;
}
