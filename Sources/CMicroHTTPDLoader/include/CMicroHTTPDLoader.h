#ifndef CREATIVE_MHD_LOADER_H
#define CREATIVE_MHD_LOADER_H

#include <stdarg.h>

/* libmicrohttpd is opened with dlopen when the service starts, not linked: it brings gnutls
 * and about ten more libraries whose symbol relocations would slow every CLI start. This
 * target defines the MHD_* functions the service calls as forwarders to the real library.
 *
 * Returns 1 when libmicrohttpd is loaded (loading it on the first call), else 0;
 * creative_mhd_error() then says why. Thread-safe. */
int creative_mhd_open(void);
const char *creative_mhd_error(void);

/* libmicrohttpd answers some malformed requests itself, inside its parser, before the
 * application sees their headers: a Content-Length that is not a plain decimal number (its
 * 400) or over 64 bits (its 413), a chunk size over 64 bits or a chunk line it cannot parse,
 * a header section over its memory (431). Its answer is an HTML page, and 0.9.75 sends its
 * status line and headers twice for a Content-Length it refuses. The only moment the
 * application is told is the error log line MHD writes just before it queues that answer
 * ("Error processing request (HTTP response code is N ...)").
 *
 * creative_mhd_log is an MHD_OPTION_EXTERNAL_LOGGER: on that line it calls the handler set with
 * creative_mhd_set_refusal_handler with the status MHD is about to send and the log line before
 * it (what MHD refused, for the message), on the thread of the refused connection. Every other
 * line is dropped. `cls` is the logger's own argument (MHD_OPTION_EXTERNAL_LOGGER's cls). */
typedef void (*creative_mhd_refusal_handler)(void *cls, unsigned int status, const char *detail);
void creative_mhd_set_refusal_handler(creative_mhd_refusal_handler handler);
void creative_mhd_log(void *cls, const char *format, va_list list);
/* creative_mhd_log as a pointer, for the MHD option list (Swift cannot name a function taking
 * a va_list as a C function pointer). */
void *creative_mhd_logger(void);

/* The connection the calling thread serves (a thread-per-connection daemon's thread serves one),
 * set from the request-line callback, for the refusal handler to find. */
void creative_mhd_set_thread_connection(void *connection);
void *creative_mhd_thread_connection(void);

#endif
