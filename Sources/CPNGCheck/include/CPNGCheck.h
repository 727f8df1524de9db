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
    int kept;               /* cpng_check_pixels: 1 when the rows were kept */
    unsigned char palette[1024]; /* cpng_check_pixels, palette image kept: RGBA of each index */
    int palette_alpha;      /* 1 when tRNS gave the palette transparency */
    char message[256];      /* the first error or warning text */
} cpng_check_result;

/* Reads signature, IHDR, every chunk (CRC checked, ancillary ones too), the whole
 * IDAT stream row by row, and IEND. libpng's longjmp error handling stays inside
 * this function; every allocation is released on every path. `max_pixels` refuses
 * a header claiming more (checked before any row is read). Returns result->ok. */
int cpng_check(const unsigned char *data, size_t length, unsigned long long max_pixels,
               cpng_check_result *result);

/* cpng_check that also keeps the decoded rows of an 8-bit RGB or RGBA PNG, as they are
 * (3 or 4 bytes a pixel), or of a palette PNG as one index byte a pixel (result->palette
 * maps them; the pixels of an entry repeating an earlier entry's colour get the earlier
 * index), in `pixels`, when `pixels_size` is exactly width x height x channels (1 for a
 * palette); result->kept says whether it did. Other PNGs (grey, 16-bit), or another size, are
 * read as in cpng_check. The check itself is the same. */
int cpng_check_pixels(const unsigned char *data, size_t length, unsigned long long max_pixels,
                      unsigned char *pixels, size_t pixels_size, cpng_check_result *result);

/* cpng_check's strict read of the chunks before the image data only (png_read_info): IHDR,
 * PLTE, tRNS and every ancillary chunk libpng checks (an iCCP whose profile does not inflate or
 * is no ICC profile, a bad sRGB, cHRM or gAMA), with the same settings, so it fails exactly
 * where cpng_check would fail first. No row is read: costs the header chunks only. Fills
 * width, height, bit_depth, color_type and message; returns result->ok. */
int cpng_header_check(const unsigned char *data, size_t length, cpng_check_result *result);

/* Inflates the zlib stream spread over the IDAT chunks of a PNG held in memory into a
 * small scratch buffer (nothing is kept) and checks it as libpng's strict read does: it ends
 * with a right Adler-32, inflates to exactly the bytes IHDR's size, depth, colour type and
 * interlacing need (more is "too much image data"), and no compressed data follows its end in
 * the chunk where it ends. Chunk CRCs are not checked here (walk them first). libvips reads
 * only the rows it needs and (before 8.15.3) tells libpng to ignore the Adler-32, so such
 * damage is otherwise rendered. `deadline_ns` (CLOCK_MONOTONIC nanoseconds, 0 for none) stops
 * the work, and so does `*cancelled` (raised with cpng_flag_raise from another thread; NULL for
 * none): returns 2 then. Returns 1 when sound; else 0 with a sentence in `message`. */
int cpng_idat_stream_check(const unsigned char *data, size_t length, unsigned long long deadline_ns,
                           const int *cancelled, char *message, size_t message_size);

/* Raises a flag that cpng_idat_stream_check reads from another thread (an atomic store). */
void cpng_flag_raise(int *flag);

/* The profile size an iCCP chunk's data declares (the first four bytes of the profile,
 * inflated alone), or -1 when unreadable. Decoders allocate this size before inflating. */
long long cpng_iccp_profile_size(const unsigned char *data, size_t length);

#endif
