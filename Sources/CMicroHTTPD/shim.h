#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>
/* mallopt for the service's allocator settings (Glibc's Swift module does not export malloc.h). */
#include <malloc.h>

/// The port the daemon is bound to (useful after binding port 0); 0 when unknown.
/// A wrapper because MHD_get_daemon_info is variadic, which Swift cannot call.
static inline uint16_t creative_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The socket of a connection, or -1. A wrapper because MHD_get_connection_info is variadic.
static inline int creative_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
