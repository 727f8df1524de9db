#ifndef CREATIVE_MHD_LOADER_H
#define CREATIVE_MHD_LOADER_H

/* libmicrohttpd is opened with dlopen when the service starts, not linked: it brings gnutls
 * and about ten more libraries whose symbol relocations would slow every CLI start. This
 * target defines the MHD_* functions the service calls as forwarders to the real library.
 *
 * Returns 1 when libmicrohttpd is loaded (loading it on the first call), else 0;
 * creative_mhd_error() then says why. Thread-safe. */
int creative_mhd_open(void);
const char *creative_mhd_error(void);

#endif
