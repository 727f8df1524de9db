#include "CPNGCheck.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const unsigned char *data;
    size_t length;
    size_t offset;
    cpng_check_result *result;
} reader_state;

static void record(cpng_check_result *result, const char *text) {
    if (result->message[0] == 0 && text) {
        strncpy(result->message, text, sizeof result->message - 1);
        result->message[sizeof result->message - 1] = 0;
    }
}

static void on_error(png_structp png, png_const_charp text) {
    reader_state *state = (reader_state *)png_get_error_ptr(png);
    record(state->result, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    reader_state *state = (reader_state *)png_get_error_ptr(png);
    state->result->warnings += 1;
    record(state->result, text);
}

/* Unpacks a row of 1, 2 or 4-bit samples (`packed`, the first sample in the high bits) into
 * one byte each. */
static inline void unpack_row(const unsigned char *restrict packed, unsigned char *restrict out, size_t width,
                              int depth) {
    const int per_byte = 8 / depth;
    const unsigned mask = (1u << depth) - 1;
    size_t whole = width / per_byte;
    for (size_t i = 0; i < whole; i++) {
        for (int k = 0; k < per_byte; k++) out[i * per_byte + k] = (packed[i] >> (8 - depth * (k + 1))) & mask;
    }
    for (size_t x = whole * per_byte; x < width; x++) {
        out[x] = (packed[whole] >> (8 - depth * (x - whole * per_byte + 1))) & mask;
    }
}

/* Gives the pixels of a palette entry that repeats an earlier entry's colour the earlier
 * index, so that pixels are one colour only when they are one index. The indices were checked
 * against the PLTE first (an index past it is damage). */
static void one_index_a_colour(unsigned char *pixels, size_t count, const unsigned char *palette) {
    unsigned char used = 0;
    for (size_t at = 0; at < count; at++) used = pixels[at] > used ? pixels[at] : used;
    unsigned char first[256];
    int repeats = 0;
    for (int index = 0; index <= used; index++) {
        first[index] = (unsigned char)index;
        for (int earlier = 0; earlier < index; earlier++) {
            if (memcmp(palette + 4 * earlier, palette + 4 * index, 4) == 0) {
                first[index] = (unsigned char)earlier;
                repeats = 1;
                break;
            }
        }
    }
    for (size_t at = 0; repeats && at < count; at++) pixels[at] = first[pixels[at]];
}

/* The largest palette index among the first `width` samples of a row of `depth`-bit indices
 * (1, 2, 4 or 8; the first sample in the high bits). The padding bits of the last byte are not
 * samples and are not read. */
static unsigned largest_index(const unsigned char *row, size_t width, int depth) {
    unsigned largest = 0;
    if (depth == 8) {
        for (size_t x = 0; x < width; x++) largest = row[x] > largest ? row[x] : largest;
        return largest;
    }
    const int per_byte = 8 / depth;
    const unsigned mask = (1u << depth) - 1;
    for (size_t x = 0; x < width; x++) {
        unsigned sample = (row[x / per_byte] >> (8 - depth * (int)(x % per_byte + 1))) & mask;
        largest = sample > largest ? sample : largest;
    }
    return largest;
}

/* A palette index past the PLTE's entries is damage: libpng 1.6 lets it through (its own
 * check is off by one and only a benign warning) and decoders show it as black. */
static void check_indices(png_structp png, unsigned largest, int entries) {
    if ((int)largest < entries) return;
    char text[96];
    snprintf(text, sizeof text, "palette index %u is past the end of the PLTE (%d %s)", largest, entries,
             entries == 1 ? "entry" : "entries");
    png_error(png, text);
}

static void on_read(png_structp png, png_bytep out, size_t count) {
    reader_state *state = (reader_state *)png_get_io_ptr(png);
    if (count > state->length - state->offset) {
        png_error(png, "truncated: the file ends inside a chunk");
    }
    memcpy(out, state->data + state->offset, count);
    state->offset += count;
}

int cpng_check(const unsigned char *data, size_t length, unsigned long long max_pixels,
               cpng_check_result *result) {
    return cpng_check_pixels(data, length, max_pixels, NULL, 0, result);
}

/* The strict settings of every read here: every CRC matters, ancillary chunks included;
 * benign errors are errors; chunk sizes and dimensions are bounded; unknown chunks dropped. */
static void read_strictly(png_structp png, reader_state *state) {
    png_set_read_fn(png, state, on_read);
    png_set_sig_bytes(png, 8);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(png, 0);
    png_set_user_limits(png, 1000000, 1000000);
    png_set_chunk_malloc_max(png, 8 * 1024 * 1024);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
}

/* The start both checks share: the result cleared, the signature checked, a reader over
 * `state` made. NULL (with the reason recorded) when there is nothing to read. */
static png_structp start_read(const unsigned char *data, size_t length, reader_state *state,
                              cpng_check_result *result) {
    memset(result, 0, sizeof *result);
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        record(result, "not a PNG signature");
        return NULL;
    }
    *state = (reader_state){data, length, 8, result};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
    if (!png) record(result, "out of memory");
    return png;
}

/* The strict read set up, then the chunks up to the image data read, and the header kept in
 * `result` (both readers begin so; libpng longjmps on damage). */
static void read_header(png_structp png, png_infop info, reader_state *state, cpng_check_result *result) {
    read_strictly(png, state);
    png_read_info(png, info);
    result->width = png_get_image_width(png, info);
    result->height = png_get_image_height(png, info);
    result->bit_depth = png_get_bit_depth(png, info);
    result->color_type = png_get_color_type(png, info);
}

int cpng_header_check(const unsigned char *data, size_t length, cpng_check_result *result) {
    reader_state state;
    png_structp png = start_read(data, length, &state, result);
    if (!png) return 0;
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        result->ok = 0;
        return 0;
    }
    read_header(png, info, &state, result);
    png_destroy_read_struct(&png, &info, NULL);
    result->ok = result->warnings == 0;
    return result->ok;
}

int cpng_check_pixels(const unsigned char *data, size_t length, unsigned long long max_pixels,
                      unsigned char *pixels, size_t pixels_size, cpng_check_result *result) {
    reader_state state;
    png_structp png = start_read(data, length, &state, result);
    if (!png) return 0;
    png_infop info = png_create_info_struct(png);
    png_bytep volatile row = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(row);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        result->ok = 0;
        return 0;
    }
    read_header(png, info, &state, result);
    if ((unsigned long long)result->width * result->height > max_pixels) {
        record(result, "too many pixels");
        png_error(png, "too many pixels");
    }
    /* Rows kept only for 8-bit RGB or RGBA as they are, and for palette images as one index
     * byte a pixel (the palette in result), and only when the caller's buffer holds exactly
     * the image. libpng's colour transforms cost several times the decode, and so does its
     * unpacking of 1, 2 and 4-bit samples: rows below 8 bits are kept packed at the start of
     * their place and unpacked here once all passes are in. */
    int palette = result->color_type == PNG_COLOR_TYPE_PALETTE;
    /* Palette entries; the indices are checked against them only when some index could be
     * past the end (fewer entries than the bit depth can address). */
    png_colorp colours = NULL;
    int palette_size = 0;
    if (palette && png_get_PLTE(png, info, &colours, &palette_size) != PNG_INFO_PLTE) {
        png_error(png, "palette image without PLTE");
    }
    int check_palette = palette && palette_size < (1 << result->bit_depth);
    int channels = result->color_type == PNG_COLOR_TYPE_RGB ? 3 : result->color_type == PNG_COLOR_TYPE_RGBA ? 4
        : palette ? 1 : 0;
    size_t stride = (size_t)result->width * channels;
    int keep = pixels != NULL && channels != 0 && (palette || result->bit_depth == 8)
        && pixels_size == stride * result->height;
    if (keep && palette) {
        png_bytep alpha = NULL;
        int alphas = 0;
        if (png_get_tRNS(png, info, &alpha, &alphas, NULL) != PNG_INFO_tRNS) alphas = 0;
        for (int i = 0; i < 256; i++) {
            result->palette[4 * i] = i < palette_size ? colours[i].red : 0;
            result->palette[4 * i + 1] = i < palette_size ? colours[i].green : 0;
            result->palette[4 * i + 2] = i < palette_size ? colours[i].blue : 0;
            result->palette[4 * i + 3] = i < alphas && alpha ? alpha[i] : 255;
        }
        result->palette_alpha = alphas > 0;
    }
    result->kept = keep;
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (keep && (palette ? rowbytes > stride : rowbytes != stride)) png_error(png, "unexpected row size");
    /* Zeroed: an interlace pass fills in only its own pixels of the row, so the row holds
     * zeros (a valid index) or pixels already read, never stale memory. */
    row = (png_bytep)calloc(rowbytes ? rowbytes : 1, 1);
    if (!row) png_error(png, "out of memory");
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < result->height; y++) {
            /* Each interlace pass fills in its pixels of the kept rows. */
            png_read_row(png, keep ? pixels + (size_t)y * stride : row, NULL);
            /* Kept rows are checked once whole (below); an interlaced kept row is not yet. */
            if (check_palette && !keep) check_indices(png, largest_index(row, result->width, result->bit_depth), palette_size);
        }
    }
    for (png_uint_32 y = 0; keep && palette && result->bit_depth < 8 && y < result->height; y++) {
        unsigned char *kept = pixels + (size_t)y * stride;
        memcpy(row, kept, rowbytes);
        switch (result->bit_depth) {
        case 1: unpack_row(row, kept, result->width, 1); break;
        case 2: unpack_row(row, kept, result->width, 2); break;
        default: unpack_row(row, kept, result->width, 4); break;
        }
    }
    if (keep && check_palette) check_indices(png, largest_index(pixels, pixels_size, 8), palette_size);
    if (keep && palette) one_index_a_colour(pixels, pixels_size, result->palette);
    png_read_end(png, info);
    free(row);
    row = NULL;
    if (state.offset != length) {
        record(result, "data after IEND");
        result->warnings += 1;
    }
    png_destroy_read_struct(&png, &info, NULL);
    result->ok = result->warnings == 0;
    return result->ok;
}
