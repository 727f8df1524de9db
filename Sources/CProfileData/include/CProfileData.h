#ifndef CREATIVE_PROFILE_DATA_H
#define CREATIVE_PROFILE_DATA_H

#include <stddef.h>

/* The platform profiles Profiles/<name>.json (UTF-8 JSON), embedded at build time.
 * creative_profile_count() is how many there are; creative_profile_file(i, &name, &length)
 * gives the i-th file's bytes (not NUL-terminated) and its file name (`google-ads.json`),
 * or NULL (and *length 0) for an index out of range. */
int creative_profile_count(void);
const unsigned char *creative_profile_file(int index, const char **name, size_t *length);

#endif
