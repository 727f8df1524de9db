#ifndef CREATIVE_PNG_CHECK_H
#define CREATIVE_PNG_CHECK_H

#include <stddef.h>

/* The outcome of a strict libpng read of a whole PNG held in memory. */
typedef struct {
    int ok;                 /* 1 when every chunk, the IDAT stream and IEND are sound */
    unsigned int width;     /* from IHDR, 0 when unreadable */
    unsigned int height;
    int bit_depth;          /* 1, 2, 4, 8 or 16 */
    int color_type;         /* PNG colour type */
    int warnings;           /* libpng warnings seen (each one means damage here) */
    char message[256];      /* the first error or warning text */
} cpng_check_result;

/* Reads signature, IHDR, every chunk (CRC checked, ancillary ones too), the whole
 * IDAT stream row by row, and IEND. libpng's longjmp error handling stays inside
 * this function; every allocation is released on every path. `max_pixels` refuses
 * a header claiming more (checked before any row is read). Returns result->ok. */
int cpng_check(const unsigned char *data, size_t length, unsigned long long max_pixels,
               cpng_check_result *result);

#endif
