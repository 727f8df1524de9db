#ifndef CREATIVE_PNG_WRITE_H
#define CREATIVE_PNG_WRITE_H

#include <stddef.h>

/* What the pixels of an 8-bit RGB or RGBA image need to be written losslessly. */
typedef struct {
    int colours;        /* distinct colours (every fully transparent pixel counts as one),
                           or 257 when there are more than 256 */
    int opaque;         /* 1 when every alpha is 255 (or there is no alpha band) */
    int binary_alpha;   /* 1 when every alpha is 0 or 255 */
    double repeats;     /* share of pixels equal to their left neighbour (0...1) */
    long spare_key;     /* an RGB colour no visible pixel has, among a few checked, or -1 */
} cpngw_analysis;

/* Reads the pixels once: `bands` is 3 or 4, rows are `width * bands` bytes, packed. */
void cpngw_analyse(const unsigned char *pixels, int width, int height, int bands,
                   cpngw_analysis *analysis);

/* How to write. */
typedef struct {
    int zlib_level;     /* 0...9 */
    int filter;         /* 0: no row filter; 1: libpng's adaptive choice among all five */
    int allow_palette;  /* 1: an exact palette when there are at most 256 colours */
} cpngw_options;

/* What was written. */
typedef struct {
    int colour_type;    /* PNG colour type: 2 RGB, 3 palette, 6 RGBA */
    int bit_depth;      /* 1, 2, 4 or 8 */
    int palette_size;   /* entries in PLTE, 0 without */
    int transparent_key;/* 1 when a tRNS colour key stands for the transparent pixels */
    char message[200];  /* libpng's error, when writing failed */
    int over_room;      /* 1 when a stream's file outgrew the room its caller gave */
} cpngw_written;

/* Writes the pixels as a PNG, losslessly, in the smallest colour type that holds them
 * exactly: a palette (1, 2, 4 or 8 bits, with tRNS for transparent entries) when allowed and
 * there are at most 256 colours; else RGB, with a tRNS colour key when the alpha is only 0
 * and 255 (the key is a colour no visible pixel has); else RGBA.
 * Fully transparent pixels may change colour (they stay fully transparent); no metadata.
 * `analysis` comes from cpngw_analyse on the same pixels. On success returns 1 and a malloc'd
 * buffer in *out (free it with cpngw_free); on failure 0 and a sentence in written->message. */
int cpngw_encode(const unsigned char *pixels, int width, int height, int bands,
                 const cpngw_analysis *analysis, const cpngw_options *options,
                 unsigned char **out, size_t *out_size, cpngw_written *written);

/* Frees a buffer from cpngw_encode. */
void cpngw_free(unsigned char *buffer);

/* A PNG written a band of rows at a time into memory the caller gives: 8-bit RGB, rows
 * unfiltered (the sheets kept as PNG are flat art's, whose runs zlib finds without a filter: the
 * test artwork's 13-megapixel sheet takes 1.12 MB unfiltered, 1.20 MB Paeth-filtered, and 0.1 s
 * less CPU at zlib level 1; a photograph's sheet is a JPEG), no metadata. The image is never
 * whole in memory, only the compressed file. */
typedef struct cpngw_stream cpngw_stream;

/* The most bytes such a PNG of width x height can take, whatever its pixels (deflate storing
 * them): room for it may be reserved untouched, and only the file's pages are used. */
size_t cpngw_stream_bound(int width, int height);

/* Starts a width x height PNG at zlib_level (0...9) into `out` (`capacity` bytes; with less than
 * cpngw_stream_bound's, a file that outgrows it fails with written->over_room set). NULL when it cannot (a sentence in written->message, which the stream
 * keeps writing to). */
cpngw_stream *cpngw_stream_begin(int width, int height, int zlib_level, unsigned char *out, size_t capacity,
                                 cpngw_written *written);

/* Writes the next `rows` rows: `width * 3` bytes each, packed. 1, or 0 on failure (also for
 * more rows than the image has). */
int cpngw_stream_rows(cpngw_stream *stream, const unsigned char *pixels, int rows);

/* Ends the PNG after its last row: 1 and the file's size in *size (the first bytes of `out`),
 * or 0 on failure. */
int cpngw_stream_finish(cpngw_stream *stream, size_t *size);

/* Frees a stream, finished or not (not `out`). */
void cpngw_stream_free(cpngw_stream *stream);

#endif
