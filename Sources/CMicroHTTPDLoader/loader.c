#include "CMicroHTTPDLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/* The library's own functions, resolved once. */
static struct {
    struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                          MHD_AccessHandlerCallback, void *, va_list);
    void (*stop_daemon)(struct MHD_Daemon *);
    MHD_socket (*quiesce_daemon)(struct MHD_Daemon *);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                                          MHD_ContentReaderFreeCallback);
    void (*destroy_response)(struct MHD_Response *);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind, const char *);
    int (*get_connection_values_n)(struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIteratorN, void *);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[256] = "libmicrohttpd is not loaded";

#define RESOLVE(field, name)                                                      \
    do {                                                                          \
        *(void **)&real.field = dlsym(handle, name);                              \
        if (!real.field) {                                                        \
            snprintf(failure, sizeof failure, "libmicrohttpd has no %s", name);   \
            return;                                                               \
        }                                                                         \
    } while (0)

static void load(void) {
    void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "cannot load libmicrohttpd (install libmicrohttpd12): %s",
                 reason ? reason : "unknown error");
        return;
    }
    RESOLVE(start_daemon_va, "MHD_start_daemon_va");
    RESOLVE(stop_daemon, "MHD_stop_daemon");
    RESOLVE(quiesce_daemon, "MHD_quiesce_daemon");
    RESOLVE(get_daemon_info, "MHD_get_daemon_info");
    RESOLVE(get_connection_info, "MHD_get_connection_info");
    RESOLVE(create_response_from_buffer, "MHD_create_response_from_buffer");
    RESOLVE(create_response_from_callback, "MHD_create_response_from_callback");
    RESOLVE(destroy_response, "MHD_destroy_response");
    RESOLVE(add_response_header, "MHD_add_response_header");
    RESOLVE(queue_response, "MHD_queue_response");
    RESOLVE(lookup_connection_value, "MHD_lookup_connection_value");
    RESOLVE(get_connection_values_n, "MHD_get_connection_values_n");
    loaded = 1;
}

int creative_mhd_open(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *creative_mhd_error(void) { return failure; }

/* Forwarders. Only the daemon start can run before creative_mhd_open() succeeded, and it
 * fails cleanly; every other call needs a daemon or a connection, which only exist after. */

struct MHD_Daemon *MHD_start_daemon_va(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc,
                                       void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls, va_list ap) {
    if (!creative_mhd_open()) return NULL;
    return real.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
}

void MHD_stop_daemon(struct MHD_Daemon *daemon) { real.stop_daemon(daemon); }

MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *daemon) { return real.quiesce_daemon(daemon); }

/* Only info types without extra arguments are used (MHD_DAEMON_INFO_BIND_PORT). */
const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
    return real.get_daemon_info(daemon, info_type);
}

/* Only info types without extra arguments are used (MHD_CONNECTION_INFO_CONNECTION_FD). */
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...) {
    return real.get_connection_info(connection, info_type);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return real.create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                      void *crc_cls, MHD_ContentReaderFreeCallback crfc) {
    return real.create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}

void MHD_destroy_response(struct MHD_Response *response) { real.destroy_response(response); }

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return real.add_response_header(response, header, content);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response) {
    return real.queue_response(connection, status_code, response);
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key) {
    return real.lookup_connection_value(connection, kind, key);
}

int MHD_get_connection_values_n(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                MHD_KeyValueIteratorN iterator, void *iterator_cls) {
    return real.get_connection_values_n(connection, kind, iterator, iterator_cls);
}

/* The refusal hook (see the header). The last line logged on each thread is kept: MHD logs
 * what it refused ("Failed to parse `Content-Length' header") just before the status line. */
static creative_mhd_refusal_handler refusal_handler = NULL;
static __thread char last_line[160];
static __thread void *thread_connection = NULL;

void creative_mhd_set_refusal_handler(creative_mhd_refusal_handler handler) { refusal_handler = handler; }

void creative_mhd_set_thread_connection(void *connection) { thread_connection = connection; }

void *creative_mhd_thread_connection(void) { return thread_connection; }

void creative_mhd_log(void *cls, const char *format, va_list list) {
    static const char refusal[] = "Error processing request (HTTP response code is %u";
    if (format == NULL) return;
    if (strncmp(format, refusal, sizeof refusal - 1) == 0) {
        va_list copy;
        va_copy(copy, list);
        unsigned int status = va_arg(copy, unsigned int);
        va_end(copy);
        if (refusal_handler != NULL) refusal_handler(cls, status, last_line);
        last_line[0] = 0;
        return;
    }
    va_list copy;
    va_copy(copy, list);
    vsnprintf(last_line, sizeof last_line, format, copy);
    va_end(copy);
}

void *creative_mhd_logger(void) { return (void *)creative_mhd_log; }
