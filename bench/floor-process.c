/* The floor of `creative-tool process IN --output-dir DIR`: the same render files written once, in
 * C on the same libvips and nothing else. The source is decoded once into memory (8-bit sRGB);
 * each distinct render is resized to its content size, given an alpha band where the output keeps
 * transparent bars (flattened onto white for JPEG), embedded at its content position in its
 * canvas, and saved with the settings the job chose; its bytes go to every file that shares it.
 * No checks, no search, no preview sheet, no manifest. The bench harness
 * (bench/harness/sections/process.py) writes the job spec from the tool's manifest.json and times
 * this beside the tool (bench/harness/floor.py builds it against the libvips the tool loads).
 *
 *   floor-process IN OUTDIR [SPEC]     the spec from the file SPEC, or from standard input
 *   floor-process --version            prints the libvips version
 *
 * The spec: one line per distinct render, blank lines and lines starting with # skipped:
 *   FILE[,FILE...] CANVAS_W CANVAS_H CONTENT_W CONTENT_H X Y BARS FORMAT [KEY=VALUE...]
 * BARS is transparent or white; FORMAT png, jpeg, webp or avif; the keys, each optional:
 *   Q (quality), effort, smart (WebP's sharp RGB to YUV, 0 or 1), chroma (JPEG: 444 for full
 *   chroma), palette (PNG: 0 or 1), bitdepth (palette PNG), dither (palette PNG, a number),
 *   compression (PNG's zlib level), filter (PNG: none, paeth or all), lossless and near (WebP). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vips/vips.h>

/* libvips 8.15 replaced savers' "strip" with "keep". */
#if VIPS_MAJOR_VERSION > 8 || (VIPS_MAJOR_VERSION == 8 && VIPS_MINOR_VERSION >= 15)
#define NO_METADATA "keep", VIPS_FOREIGN_KEEP_NONE
#else
#define NO_METADATA "strip", TRUE
#endif

#define MAX_OPTIONS 16

typedef struct {
    char files[4096], bars[16], format[8];
    int canvas_width, canvas_height, content_width, content_height, x, y;
    int quality, effort, smart, chroma, palette, bitdepth, compression, lossless, near;
    double dither;
    char filter[8];
} Render;

static int fail(const char *what) {
    fprintf(stderr, "floor-process: %s: %s\n", what, vips_error_buffer());
    return 1;
}

/* One spec line into *render; 0 when it reads, else -1. */
static int parse(char *line, Render *render) {
    int used = 0;
    memset(render, 0, sizeof *render);
    render->quality = render->effort = render->compression = render->bitdepth = -1;
    render->smart = 1;
    render->dither = -1;
    if (sscanf(line, "%4095s %d %d %d %d %d %d %15s %7s%n", render->files, &render->canvas_width,
               &render->canvas_height, &render->content_width, &render->content_height, &render->x, &render->y,
               render->bars, render->format, &used) != 9)
        return -1;
    for (char *option = strtok(line + used, " \t\r\n"); option; option = strtok(NULL, " \t\r\n")) {
        char *value = strchr(option, '=');
        if (!value) return -1;
        *value++ = '\0';
        if (!strcmp(option, "Q")) render->quality = atoi(value);
        else if (!strcmp(option, "effort")) render->effort = atoi(value);
        else if (!strcmp(option, "smart")) render->smart = atoi(value);
        else if (!strcmp(option, "chroma")) render->chroma = atoi(value);
        else if (!strcmp(option, "palette")) render->palette = atoi(value);
        else if (!strcmp(option, "bitdepth")) render->bitdepth = atoi(value);
        else if (!strcmp(option, "dither")) render->dither = atof(value);
        else if (!strcmp(option, "compression")) render->compression = atoi(value);
        else if (!strcmp(option, "filter")) snprintf(render->filter, sizeof render->filter, "%s", value);
        else if (!strcmp(option, "lossless")) render->lossless = atoi(value);
        else if (!strcmp(option, "near")) render->near = atoi(value);
        else return -1;
    }
    return 0;
}

/* The placed render's bytes, saved as the spec says; NULL on failure. */
static void *save(VipsImage *placed, const Render *render, size_t *length) {
    void *buffer = NULL;
    int failed;
    if (!strcmp(render->format, "jpeg")) {
        failed = vips_jpegsave_buffer(placed, &buffer, length, NO_METADATA, "Q", render->quality,
                                      "optimize_coding", TRUE, "subsample_mode",
                                      render->chroma == 444 ? VIPS_FOREIGN_SUBSAMPLE_OFF : VIPS_FOREIGN_SUBSAMPLE_AUTO,
                                      NULL);
    } else if (!strcmp(render->format, "webp")) {
        if (render->lossless || render->near)
            failed = vips_webpsave_buffer(placed, &buffer, length, NO_METADATA, "lossless", TRUE, "near_lossless",
                                          render->near ? TRUE : FALSE, "Q", render->quality < 0 ? 100 : render->quality,
                                          "effort", render->effort < 0 ? 4 : render->effort, NULL);
        else
            failed = vips_webpsave_buffer(placed, &buffer, length, NO_METADATA, "Q", render->quality, "effort",
                                          render->effort < 0 ? 4 : render->effort, "smart_subsample",
                                          render->smart ? TRUE : FALSE, NULL);
    } else if (!strcmp(render->format, "avif")) {
        failed = vips_heifsave_buffer(placed, &buffer, length, NO_METADATA, "compression",
                                      VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "Q", render->quality, "bitdepth", 8,
                                      "effort", render->effort < 0 ? 1 : render->effort, NULL);
    } else if (!strcmp(render->format, "png") && render->palette) {
        failed = vips_pngsave_buffer(placed, &buffer, length, NO_METADATA, "palette", TRUE, "Q",
                                     render->quality < 0 ? 100 : render->quality, "bitdepth",
                                     render->bitdepth < 0 ? 8 : render->bitdepth, "dither",
                                     render->dither < 0 ? 1.0 : render->dither, "effort",
                                     render->effort < 0 ? 7 : render->effort, "compression",
                                     render->compression < 0 ? 6 : render->compression, NULL);
    } else if (!strcmp(render->format, "png")) {
        VipsForeignPngFilter filter = !strcmp(render->filter, "paeth") ? VIPS_FOREIGN_PNG_FILTER_PAETH
                                      : !strcmp(render->filter, "all") ? VIPS_FOREIGN_PNG_FILTER_ALL
                                                                       : VIPS_FOREIGN_PNG_FILTER_NONE;
        failed = vips_pngsave_buffer(placed, &buffer, length, NO_METADATA, "filter", filter, "compression",
                                     render->compression < 0 ? 6 : render->compression, NULL);
    } else {
        vips_error("floor-process", "no format %s", render->format);
        return NULL;
    }
    return failed ? NULL : buffer;
}

/* One distinct render of the decoded source, written to each of its files. */
static int write_render(VipsImage *source, const Render *render, const char *folder) {
    VipsImage *scaled = NULL, *banded = NULL, *placed = NULL;
    const int white = !strcmp(render->bars, "white");
    if (vips_thumbnail_image(source, &scaled, render->content_width, "height", render->content_height, "size",
                             VIPS_SIZE_FORCE, NULL))
        return fail("thumbnail");
    const int has_alpha = scaled->Bands == 2 || scaled->Bands == 4;
    const int bars = render->content_width != render->canvas_width || render->content_height != render->canvas_height;
    if (white && has_alpha) {
        /* JPEG: the artwork flattened onto white, as the bars are. */
        double paper[3] = {255, 255, 255};
        if (vips_flatten(scaled, &banded, "background", vips_array_double_new(paper, 3), NULL)) return fail("flatten");
    } else if (!white && bars && !has_alpha) {
        if (vips_bandjoin_const1(scaled, &banded, 255, NULL)) return fail("bandjoin");
    } else {
        banded = scaled;
        g_object_ref(banded);
    }
    double background[4] = {0, 0, 0, 0};
    if (white) background[0] = background[1] = background[2] = background[3] = 255;
    VipsArrayDouble *colour = vips_array_double_new(background, banded->Bands);
    if (vips_embed(banded, &placed, render->x, render->y, render->canvas_width, render->canvas_height, "extend",
                   VIPS_EXTEND_BACKGROUND, "background", colour, NULL))
        return fail("embed");
    vips_area_unref(VIPS_AREA(colour));
    size_t length = 0;
    void *bytes = save(placed, render, &length);
    if (!bytes) return fail(render->files);
    char names[sizeof render->files];
    snprintf(names, sizeof names, "%s", render->files);
    for (char *name = strtok(names, ","); name; name = strtok(NULL, ",")) {
        char *path = g_build_filename(folder, name, NULL);
        FILE *file = fopen(path, "wb");
        if (!file || fwrite(bytes, 1, length, file) != length || fclose(file)) {
            fprintf(stderr, "floor-process: cannot write %s\n", path);
            return 1;
        }
        g_free(path);
    }
    g_free(bytes);
    g_object_unref(placed);
    g_object_unref(banded);
    g_object_unref(scaled);
    return 0;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) return fail("vips_init");
    if (argc == 2) {
        printf("libvips %s\n", vips_version_string());
        return 0;
    }
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: floor-process IN OUTDIR [SPEC] | floor-process --version\n");
        return 64;
    }
    vips_concurrency_set(2);
    FILE *spec = argc == 4 ? fopen(argv[3], "r") : stdin;
    if (!spec) {
        fprintf(stderr, "floor-process: cannot read %s\n", argv[3]);
        return 1;
    }
    g_mkdir_with_parents(argv[2], 0755);
    /* The source, decoded once into memory as 8-bit sRGB. */
    VipsImage *in = vips_image_new_from_file(argv[1], NULL), *srgb = NULL, *eight = NULL;
    if (!in) return fail("load");
    if (vips_colourspace(in, &srgb, in->Bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W, NULL))
        return fail("colourspace");
    if (vips_cast_uchar(srgb, &eight, NULL)) return fail("cast");
    VipsImage *source = vips_image_copy_memory(eight);
    if (!source) return fail("decode");
    char line[8192];
    int number = 0;
    while (fgets(line, sizeof line, spec)) {
        number++;
        char *start = line + strspn(line, " \t");
        if (*start == '#' || *start == '\n' || *start == '\0') continue;
        Render render;
        if (parse(start, &render)) {
            fprintf(stderr, "floor-process: spec line %d does not read\n", number);
            return 1;
        }
        if (write_render(source, &render, argv[2])) return 1;
    }
    if (spec != stdin) fclose(spec);
    g_object_unref(source);
    g_object_unref(eight);
    g_object_unref(srgb);
    g_object_unref(in);
    vips_shutdown();
    return 0;
}
