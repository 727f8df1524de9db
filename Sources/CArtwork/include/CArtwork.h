#ifndef CREATIVE_ARTWORK_H
#define CREATIVE_ARTWORK_H

#include <stddef.h>

/* The public test artwork PNGs, embedded from TestImages/ at build time.
 * `width` and `height` name the artwork (960x150, 1320x204, 2184x270); the
 * result is NULL (and *length 0) for any other size. */
const unsigned char *creative_artwork_png(int width, int height, size_t *length);

/* The prompt template Prompts/banner.txt (UTF-8), embedded at build time.
 * Returns the text, NUL-terminated; *length is its byte count without the NUL. */
const char *creative_prompt_banner(size_t *length);

#endif
