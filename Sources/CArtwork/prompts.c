#include "CArtwork.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

/* Prompts/banner.txt, embedded at build time and NUL-terminated. */
static const unsigned char prompt_banner[] = {
#embed "../../Prompts/banner.txt" suffix(,)
    0
};

const char *creative_prompt_banner(size_t *length) {
    *length = sizeof prompt_banner - 1;
    return (const char *)prompt_banner;
}
