#include "CPNGCheck.h"

#include <string.h>
#include <time.h>
#include <zlib.h>

static unsigned long read_be32(const unsigned char *p) {
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) | p[3];
}

static void note(char *message, size_t size, const char *text) {
    if (size == 0) return;
    strncpy(message, text, size - 1);
    message[size - 1] = 0;
}

void cpng_flag_raise(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }

static int past(unsigned long long deadline_ns, const int *cancelled) {
    if (cancelled && __atomic_load_n(cancelled, __ATOMIC_ACQUIRE)) return 1;
    if (deadline_ns == 0) return 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned long long)now.tv_sec * 1000000000ULL + (unsigned long long)now.tv_nsec >= deadline_ns;
}

/* The bytes of one image's filtered rows: a filter byte, then the row's packed samples. */
static unsigned long long filtered_size(unsigned long long width, unsigned long long height, unsigned bits) {
    if (width == 0 || height == 0) return 0;
    return height * (1 + (width * bits + 7) / 8);
}

/* The bytes IHDR says the inflated image data holds (each Adam7 pass an image of its own), or
 * 0 when unknown (IHDR unreadable or beyond libpng's limits). */
static unsigned long long expected_image_data(const unsigned char *data, size_t length) {
    if (length < 29 || memcmp(data + 12, "IHDR", 4) != 0) return 0;
    unsigned long long width = read_be32(data + 16), height = read_be32(data + 20);
    /* libpng's limits here (png_set_user_limits): past them nothing is decoded anyway. */
    if (width > 1000000 || height > 1000000) return 0;
    unsigned depth = data[24], channels;
    switch (data[25]) {
    case 0: case 3: channels = 1; break;
    case 2: channels = 3; break;
    case 4: channels = 2; break;
    case 6: channels = 4; break;
    default: return 0;
    }
    unsigned bits = depth * channels;
    if (data[28] == 0) return filtered_size(width, height, bits);
    static const unsigned passes[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                          {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    unsigned long long total = 0;
    for (int pass = 0; pass < 7; pass++) {
        const unsigned *p = passes[pass];
        unsigned long long columns = width > p[0] ? (width - p[0] + p[2] - 1) / p[2] : 0;
        unsigned long long rows = height > p[1] ? (height - p[1] + p[3] - 1) / p[3] : 0;
        total += filtered_size(columns, rows, bits);
    }
    return total;
}

int cpng_idat_stream_check(const unsigned char *data, size_t length, unsigned long long deadline_ns,
                           const int *cancelled, char *message, size_t message_size) {
    if (message_size) message[0] = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) {
        note(message, message_size, "zlib could not start");
        return 0;
    }
    unsigned char scratch[32768];
    const unsigned long long expected = expected_image_data(data, length);
    int status = Z_OK;
    int seen = 0;
    int extra = 0; /* compressed bytes left in the chunk where the stream ended */
    unsigned long rounds = 0;
    size_t offset = 8;
    while (status == Z_OK && offset + 12 <= length) {
        unsigned long chunk = read_be32(data + offset);
        if (chunk > length - offset - 12) break;
        const unsigned char *type = data + offset + 4;
        if (memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "IDAT", 4) == 0) {
            seen = 1;
            stream.next_in = (unsigned char *)(data + offset + 8);
            stream.avail_in = (uInt)chunk;
            stream.avail_out = 1; /* nothing pending from an earlier chunk */
            /* Until the chunk is used up and zlib holds nothing more (a full buffer may have more). */
            while (status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)) {
                stream.next_out = scratch;
                stream.avail_out = sizeof scratch;
                status = inflate(&stream, Z_NO_FLUSH);
                /* Z_BUF_ERROR only says no progress was possible: more input is needed. */
                if (status == Z_BUF_ERROR) status = Z_OK;
                /* More than the image holds: no need to inflate the rest. */
                if (expected && stream.total_out > expected) break;
                if (++rounds % 64 == 0 && past(deadline_ns, cancelled)) {
                    inflateEnd(&stream);
                    note(message, message_size, "deadline");
                    return 2;
                }
            }
            if (expected && stream.total_out > expected) break;
            if (status == Z_STREAM_END && stream.avail_in > 0) extra = 1;
        }
        offset += 12 + chunk;
    }
    int sized = !expected || stream.total_out == expected;
    int sound = seen && status == Z_STREAM_END && sized && !extra;
    if (!sound) {
        if (!seen) note(message, message_size, "no IDAT chunk");
        else if (expected && stream.total_out > expected)
            note(message, message_size, "IDAT: the image data inflates to more bytes than the image holds");
        else if (status == Z_STREAM_END && !sized)
            note(message, message_size, "IDAT: the image data inflates to fewer bytes than the image holds");
        else if (extra) note(message, message_size, "IDAT: extra compressed data after the end of the image data");
        else if (status == Z_OK) note(message, message_size, "the compressed image data ends early");
        else if (status == Z_DATA_ERROR && stream.msg && strcmp(stream.msg, "incorrect data check") == 0)
            note(message, message_size, "IDAT: the compressed data fails its Adler-32 checksum");
        else note(message, message_size, stream.msg ? stream.msg : "zlib error in the image data");
    }
    inflateEnd(&stream);
    return sound;
}

long long cpng_iccp_profile_size(const unsigned char *data, size_t length) {
    /* Profile name (1-79 bytes), NUL, compression method, then the zlib stream. */
    size_t name = 0;
    while (name < length && name < 80 && data[name] != 0) name++;
    if (name == 0 || name >= 80 || name + 2 > length) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) return -1;
    unsigned char header[4];
    stream.next_in = (unsigned char *)(data + name + 2);
    stream.avail_in = (uInt)(length - name - 2);
    stream.next_out = header;
    stream.avail_out = sizeof header;
    int status = Z_OK;
    while (status == Z_OK && stream.avail_out > 0 && stream.avail_in > 0) status = inflate(&stream, Z_NO_FLUSH);
    int got = stream.avail_out == 0;
    inflateEnd(&stream);
    return got ? (long long)read_be32(header) : -1;
}
