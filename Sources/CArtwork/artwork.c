#include "CArtwork.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char artwork_960x150[] = {
#embed "../../TestImages/test-artwork-960x150.png"
};
static const unsigned char artwork_1320x204[] = {
#embed "../../TestImages/test-artwork-1320x204.png"
};
static const unsigned char artwork_2184x270[] = {
#embed "../../TestImages/test-artwork-2184x270.png"
};

const unsigned char *creative_artwork_png(int width, int height, size_t *length) {
    if (width == 960 && height == 150) {
        *length = sizeof artwork_960x150;
        return artwork_960x150;
    }
    if (width == 1320 && height == 204) {
        *length = sizeof artwork_1320x204;
        return artwork_1320x204;
    }
    if (width == 2184 && height == 270) {
        *length = sizeof artwork_2184x270;
        return artwork_2184x270;
    }
    *length = 0;
    return 0;
}
