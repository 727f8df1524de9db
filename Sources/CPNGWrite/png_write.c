#include "CPNGWrite.h"

#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A colour as one number: RGBA, with every fully transparent pixel the same (0). */
static inline uint32_t colour_key(const unsigned char *pixel, int bands) {
    unsigned alpha = bands == 4 ? pixel[3] : 255;
    if (alpha == 0) return 0;
    return (uint32_t)pixel[0] << 24 | (uint32_t)pixel[1] << 16 | (uint32_t)pixel[2] << 8 | alpha;
}

/* At most 256 distinct keys, in an open-addressing table of 1024 slots. */
#define TABLE_SIZE 1024
typedef struct {
    uint32_t keys[TABLE_SIZE];
    short index[TABLE_SIZE]; /* -1: empty; else the colour's number, in insertion order */
    int count;
} colour_table;

static void table_init(colour_table *table) {
    memset(table->index, 0xff, sizeof table->index);
    table->count = 0;
}

static inline unsigned slot_of(uint32_t key) { return (key * 2654435761u) >> 22; }

/* The key's number, adding it when there is room; -1 when the table already holds 256. */
static int table_find_or_add(colour_table *table, uint32_t key) {
    unsigned slot = slot_of(key);
    while (table->index[slot] >= 0) {
        if (table->keys[slot] == key) return table->index[slot];
        slot = (slot + 1) & (TABLE_SIZE - 1);
    }
    if (table->count == 256) return -1;
    table->keys[slot] = key;
    table->index[slot] = (short)table->count;
    return table->count++;
}

/* Colours unlikely in art, checked during the analysis so that a transparent key is usually
 * found without a second pass over the pixels. */
static const uint32_t spare_candidates[4] = {0x010203, 0xFE01FD, 0x03FE02, 0x7F017E};

void cpngw_analyse(const unsigned char *pixels, int width, int height, int bands,
                   cpngw_analysis *analysis) {
    colour_table table;
    table_init(&table);
    int overflow = 0, opaque = 1, binary = 1;
    int spare_used[4] = {0, 0, 0, 0};
    size_t repeats = 0;
    for (int y = 0; y < height; y++) {
        const unsigned char *row = pixels + (size_t)y * width * bands;
        uint32_t previous = 0;
        for (int x = 0; x < width; x++) {
            const unsigned char *pixel = row + (size_t)x * bands;
            uint32_t key = colour_key(pixel, bands);
            unsigned alpha = bands == 4 ? pixel[3] : 255;
            if (x > 0 && key == previous) {
                repeats++;
                continue;
            }
            previous = key;
            if (alpha != 255) {
                opaque = 0;
                if (alpha != 0) binary = 0;
            }
            if (!overflow && table_find_or_add(&table, key) < 0) overflow = 1;
            if (alpha != 0) {
                uint32_t rgb = key >> 8;
                for (int i = 0; i < 4; i++) spare_used[i] |= rgb == spare_candidates[i];
            }
        }
    }
    analysis->spare_key = -1;
    for (int i = 3; i >= 0; i--) if (!spare_used[i]) analysis->spare_key = spare_candidates[i];
    analysis->colours = overflow ? 257 : table.count;
    analysis->opaque = opaque;
    analysis->binary_alpha = binary;
    size_t total = (size_t)width * height;
    analysis->repeats = total ? (double)repeats / (double)total : 0;
}

/* The PNG being written, in a growing buffer. */
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    cpngw_written *written;
} sink;

static void on_write(png_structp png, png_bytep bytes, size_t count) {
    sink *out = (sink *)png_get_io_ptr(png);
    if (count > out->capacity - out->size) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (count > capacity - out->size) {
            if (capacity > SIZE_MAX / 2) png_error(png, "the PNG is too large for memory");
            capacity *= 2;
        }
        unsigned char *grown = realloc(out->data, capacity);
        if (!grown) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, bytes, count);
    out->size += count;
}

static void on_flush(png_structp png) { (void)png; }

static void on_error(png_structp png, png_const_charp text) {
    sink *out = (sink *)png_get_error_ptr(png);
    strncpy(out->written->message, text ? text : "libpng error", sizeof out->written->message - 1);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

/* An RGB colour that no visible pixel has, or -1 (when all 2^24 are used). */
static long unused_key(const unsigned char *pixels, int width, int height, int bands) {
    size_t count = (size_t)width * height;
    uint64_t *seen = calloc((1u << 24) / 64, sizeof *seen);
    if (!seen) return -1;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *pixel = pixels + i * bands;
        if (bands == 4 && pixel[3] == 0) continue;
        uint32_t rgb = (uint32_t)pixel[0] << 16 | (uint32_t)pixel[1] << 8 | pixel[2];
        seen[rgb >> 6] |= (uint64_t)1 << (rgb & 63);
    }
    long found = -1;
    for (uint32_t word = 0; word < (1u << 24) / 64 && found < 0; word++) {
        if (seen[word] != UINT64_MAX) {
            for (int bit = 0; bit < 64; bit++) {
                if (!(seen[word] >> bit & 1)) { found = (long)word * 64 + bit; break; }
            }
        }
    }
    free(seen);
    return found;
}

/* Fills `palette`, `alpha` (tRNS entries) and `table` (key -> palette index) with the image's
 * colours, the ones with alpha below 255 first so that tRNS stays short. Returns the number of
 * tRNS entries. */
static int build_palette(const unsigned char *pixels, int width, int height, int bands,
                         colour_table *table, png_color *palette, png_byte *alpha, int *entries) {
    colour_table seen;
    table_init(&seen);
    size_t count = (size_t)width * height;
    uint32_t keys[256];
    for (size_t i = 0; i < count; i++) {
        uint32_t key = colour_key(pixels + i * bands, bands);
        int number = table_find_or_add(&seen, key);
        if (number >= 0 && number == seen.count - 1) keys[number] = key;
    }
    int translucent = 0, next = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < seen.count; i++) {
            uint32_t key = keys[i];
            int is_translucent = (key & 0xff) != 255;
            if (is_translucent != (pass == 0)) continue;
            palette[next].red = (png_byte)(key >> 24);
            palette[next].green = (png_byte)(key >> 16);
            palette[next].blue = (png_byte)(key >> 8);
            if (is_translucent) alpha[translucent++] = (png_byte)key;
            table_find_or_add(table, key); /* inserted in this order: number == palette index */
            next++;
        }
    }
    *entries = next;
    return translucent;
}

static int palette_lookup(const colour_table *table, uint32_t key) {
    unsigned slot = slot_of(key);
    while (table->index[slot] >= 0) {
        if (table->keys[slot] == key) return table->index[slot];
        slot = (slot + 1) & (TABLE_SIZE - 1);
    }
    return 0;
}

int cpngw_encode(const unsigned char *pixels, int width, int height, int bands,
                 const cpngw_analysis *analysis, const cpngw_options *options,
                 unsigned char **out, size_t *out_size, cpngw_written *written) {
    memset(written, 0, sizeof *written);
    *out = NULL;
    *out_size = 0;
    if ((bands != 3 && bands != 4) || width <= 0 || height <= 0) {
        strcpy(written->message, "only 8-bit RGB or RGBA pixels can be written");
        return 0;
    }
    /* The colour type. */
    /* Renders stay colour PNGs (colour type 2, 3 or 6): a grey render is written in colour. */
    int use_palette = options->allow_palette && analysis->colours <= 256;
    long key = -1;
    int colour_type, channels;
    if (use_palette) {
        colour_type = PNG_COLOR_TYPE_PALETTE;
        channels = 1;
    } else if (analysis->opaque || bands == 3) {
        colour_type = PNG_COLOR_TYPE_RGB;
        channels = 3;
    } else {
        if (analysis->binary_alpha) {
            key = analysis->spare_key >= 0 ? analysis->spare_key : unused_key(pixels, width, height, bands);
        }
        colour_type = key >= 0 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA;
        channels = key >= 0 ? 3 : 4;
    }

    sink output = {NULL, 0, 0, written};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &output, on_error, on_warning);
    if (!png) {
        strcpy(written->message, "out of memory");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile row = NULL;
    colour_table *volatile table = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        free(table);
        free(output.data);
        png_destroy_write_struct(&png, info ? &info : NULL);
        if (!written->message[0]) strcpy(written->message, "out of memory");
        return 0;
    }
    png_set_write_fn(png, &output, on_write, on_flush);
    png_set_compression_level(png, options->zlib_level);

    int bit_depth = 8;
    png_color palette[256];
    png_byte palette_alpha[256];
    int entries = 0, translucent = 0;
    if (use_palette) {
        table = malloc(sizeof *table);
        if (!table) png_error(png, "out of memory");
        table_init(table);
        translucent = build_palette(pixels, width, height, bands, table, palette, palette_alpha, &entries);
        bit_depth = entries <= 2 ? 1 : entries <= 4 ? 2 : entries <= 16 ? 4 : 8;
    }
    /* Palette images and fewer than 8 bits a sample compress best unfiltered (PNG spec 12.8). */
    png_set_filter(png, 0, options->filter && !use_palette ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, bit_depth, colour_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (use_palette) {
        png_set_PLTE(png, info, palette, entries);
        if (translucent > 0) png_set_tRNS(png, info, palette_alpha, translucent, NULL);
    } else if (key >= 0) {
        png_color_16 transparent = {0};
        transparent.red = (png_uint_16)(key >> 16 & 0xff);
        transparent.green = (png_uint_16)(key >> 8 & 0xff);
        transparent.blue = (png_uint_16)(key & 0xff);
        png_set_tRNS(png, info, NULL, 0, &transparent);
    }
    png_write_info(png, info);
    if (bit_depth < 8) png_set_packing(png);

    row = malloc((size_t)width * channels);
    if (!row) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) {
        const unsigned char *source = pixels + (size_t)y * width * bands;
        if (colour_type == PNG_COLOR_TYPE_RGB_ALPHA && bands == 4) {
            png_write_row(png, (png_const_bytep)source);
            continue;
        }
        if (colour_type == PNG_COLOR_TYPE_RGB && bands == 3) {
            png_write_row(png, (png_const_bytep)source);
            continue;
        }
        for (int x = 0; x < width; x++) {
            const unsigned char *pixel = source + (size_t)x * bands;
            int hidden = bands == 4 && pixel[3] == 0;
            unsigned char *target = row + (size_t)x * channels;
            switch (colour_type) {
            case PNG_COLOR_TYPE_PALETTE:
                target[0] = (unsigned char)palette_lookup(table, colour_key(pixel, bands));
                break;
            case PNG_COLOR_TYPE_RGB:
                if (hidden) {
                    target[0] = (unsigned char)(key >> 16);
                    target[1] = (unsigned char)(key >> 8);
                    target[2] = (unsigned char)key;
                } else {
                    memcpy(target, pixel, 3);
                }
                break;
            default: /* RGBA from RGB does not happen: bands == 3 is opaque */
                memcpy(target, pixel, 3);
                target[3] = bands == 4 ? pixel[3] : 255;
                break;
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    free(table);

    written->colour_type = colour_type;
    written->bit_depth = bit_depth;
    written->palette_size = entries;
    written->transparent_key = key >= 0;
    *out = output.data;
    *out_size = output.size;
    return 1;
}

void cpngw_free(unsigned char *buffer) { free(buffer); }

struct cpngw_stream {
    png_structp png;
    png_infop info;
    unsigned char *out;
    size_t capacity, size;
    cpngw_written *written;
    int width, height, written_rows;
};

static void on_stream_write(png_structp png, png_bytep bytes, size_t count) {
    cpngw_stream *stream = (cpngw_stream *)png_get_io_ptr(png);
    if (count > stream->capacity - stream->size) {
        stream->written->over_room = 1;
        png_error(png, "the PNG is larger than the room given for it");
    }
    memcpy(stream->out + stream->size, bytes, count);
    stream->size += count;
}

static void on_stream_error(png_structp png, png_const_charp text) {
    cpngw_stream *stream = (cpngw_stream *)png_get_error_ptr(png);
    strncpy(stream->written->message, text ? text : "libpng error", sizeof stream->written->message - 1);
    png_longjmp(png, 1);
}

size_t cpngw_stream_bound(int width, int height) {
    /* Rows of a filter byte and their pixels, stored by deflate at worst (5 bytes a 64 KiB block),
     * in IDAT chunks of libpng's 8 KiB buffer (12 bytes each), and the signature, IHDR and IEND. */
    size_t raw = (size_t)height * ((size_t)width * 3 + 1);
    return raw + raw / 16384 * 5 + raw / 8192 * 12 + 4096;
}

cpngw_stream *cpngw_stream_begin(int width, int height, int zlib_level, unsigned char *out, size_t capacity,
                                 cpngw_written *written) {
    memset(written, 0, sizeof *written);
    if (width <= 0 || height <= 0) {
        strcpy(written->message, "a PNG has at least one row and one column");
        return NULL;
    }
    cpngw_stream *stream = calloc(1, sizeof *stream);
    if (!stream) {
        strcpy(written->message, "out of memory");
        return NULL;
    }
    stream->written = written;
    stream->out = out;
    stream->capacity = capacity;
    stream->width = width;
    stream->height = height;
    stream->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, stream, on_stream_error, on_warning);
    if (stream->png) stream->info = png_create_info_struct(stream->png);
    if (!stream->png || !stream->info) {
        strcpy(written->message, "out of memory");
        cpngw_stream_free(stream);
        return NULL;
    }
    if (setjmp(png_jmpbuf(stream->png))) {
        if (!written->message[0]) strcpy(written->message, "out of memory");
        cpngw_stream_free(stream);
        return NULL;
    }
    png_set_write_fn(stream->png, stream, on_stream_write, on_flush);
    png_set_compression_level(stream->png, zlib_level);
    png_set_filter(stream->png, 0, PNG_FILTER_NONE);
    png_set_IHDR(stream->png, stream->info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(stream->png, stream->info);
    written->colour_type = PNG_COLOR_TYPE_RGB;
    written->bit_depth = 8;
    return stream;
}

int cpngw_stream_rows(cpngw_stream *stream, const unsigned char *pixels, int rows) {
    if (rows < 0 || rows > stream->height - stream->written_rows) {
        strcpy(stream->written->message, "more rows than the PNG has");
        return 0;
    }
    if (setjmp(png_jmpbuf(stream->png))) return 0;
    for (int y = 0; y < rows; y++) png_write_row(stream->png, (png_const_bytep)(pixels + (size_t)y * stream->width * 3));
    stream->written_rows += rows;
    return 1;
}

int cpngw_stream_finish(cpngw_stream *stream, size_t *size) {
    *size = 0;
    if (stream->written_rows != stream->height) {
        strcpy(stream->written->message, "the PNG ended before its last row");
        return 0;
    }
    if (setjmp(png_jmpbuf(stream->png))) return 0;
    png_write_end(stream->png, NULL);
    *size = stream->size;
    return 1;
}

void cpngw_stream_free(cpngw_stream *stream) {
    if (!stream) return;
    if (stream->png) png_destroy_write_struct(&stream->png, stream->info ? &stream->info : NULL);
    free(stream);
}
