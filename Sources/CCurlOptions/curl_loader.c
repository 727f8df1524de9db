#include "curl_options.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The library's own functions, resolved once. */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[256] = "libcurl is not loaded";

#define RESOLVE(field, name)                                                 \
    do {                                                                     \
        *(void **)&real.field = dlsym(handle, name);                         \
        if (!real.field) {                                                   \
            snprintf(failure, sizeof failure, "libcurl has no %s", name);    \
            return;                                                          \
        }                                                                    \
    } while (0)

static void load(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "cannot load libcurl (install libcurl4): %s", reason ? reason : "unknown error");
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_reset, "curl_easy_reset");
    RESOLVE(easy_perform, "curl_easy_perform");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    if (real.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int creative_curl_open(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *creative_curl_error(void) { return failure; }

/* Forwarders: only reached after creative_curl_open() succeeded (S3Client checks it first). */

CURL *curl_easy_init(void) { return creative_curl_open() ? real.easy_init() : NULL; }
void curl_easy_cleanup(CURL *handle) { real.easy_cleanup(handle); }
void curl_easy_reset(CURL *handle) { real.easy_reset(handle); }
CURLcode curl_easy_perform(CURL *handle) { return real.easy_perform(handle); }
const char *curl_easy_strerror(CURLcode code) { return real.easy_strerror(code); }
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) { return real.slist_append(list, text); }
void curl_slist_free_all(struct curl_slist *list) {
    if (list) real.slist_free_all(list);
}

CURLcode creative_curl_set_long(CURL *handle, CURLoption option, long value) {
    return real.easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return real.easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return real.easy_setopt(handle, option, value);
}

CURLcode creative_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return real.easy_setopt(handle, option, value);
}

long creative_curl_response_code(CURL *handle) {
    long code = 0;
    if (real.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

curl_off_t creative_curl_content_length(CURL *handle) {
    curl_off_t length = -1;
    if (real.easy_getinfo(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) != CURLE_OK) return -1;
    return length;
}
