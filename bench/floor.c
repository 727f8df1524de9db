/* The floor of a render: the same pipeline as `creative-tool render IN --slot WxH --scale S`
 * on a PNG or JPEG, in C on the same libvips and nothing else: load (one sequential pass), scale to
 * the aspect-fit content size, add an opaque alpha band, centre it in transparent bars, save PNG.
 * The bench harness (bench/harness/floor.py) builds it against the libvips the tool loads and
 * times it beside the tool; what the tool costs above it is its own work (checks, cost model, its
 * PNG writer).
 *
 *   floor IN OUT CANVAS_WIDTH CANVAS_HEIGHT [FILTER LEVEL]
 *   floor --version     prints the libvips version (the start-up floor)
 * FILTER (none or all: libvips' adaptive choice) and LEVEL (zlib, 0-9) are pngsave's filter and
 * compression; without them, pngsave's defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <vips/vips.h>

static int fail(const char *what) {
    fprintf(stderr, "floor: %s: %s\n", what, vips_error_buffer());
    return 1;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) return fail("vips_init");
    if (argc == 2) {
        printf("libvips %s\n", vips_version_string());
        return 0;
    }
    if (argc != 5 && argc != 7) {
        fprintf(stderr, "usage: floor IN OUT CANVAS_WIDTH CANVAS_HEIGHT [none|all LEVEL] | floor --version\n");
        return 64;
    }
    const int width = atoi(argv[3]), height = atoi(argv[4]);
    vips_concurrency_set(2);
    VipsImage *in = vips_image_new_from_file(argv[1], "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                             VIPS_FAIL_ON_WARNING, NULL);
    if (!in) return fail("load");
    /* Aspect fit: the content's size, rounded as the tool rounds it. */
    double scale = (double) width / in->Xsize;
    if ((double) height / in->Ysize < scale) scale = (double) height / in->Ysize;
    int content_width = (int) (in->Xsize * scale + 0.5), content_height = (int) (in->Ysize * scale + 0.5);
    if (content_width < 1) content_width = 1;
    if (content_height < 1) content_height = 1;
    VipsImage *scaled = NULL, *alpha = NULL, *placed = NULL;
    if (vips_thumbnail_image(in, &scaled, content_width, "height", content_height, "size", VIPS_SIZE_FORCE, NULL))
        return fail("thumbnail");
    if (scaled->Bands == 3 || scaled->Bands == 1) {
        if (vips_bandjoin_const1(scaled, &alpha, 255, NULL)) return fail("bandjoin");
    } else {
        alpha = scaled;
        g_object_ref(alpha);
    }
    double bars[4] = {0, 0, 0, 0};
    VipsArrayDouble *background = vips_array_double_new(bars, 4);
    if (vips_embed(alpha, &placed, (width - content_width) / 2, (height - content_height) / 2, width, height,
                   "extend", VIPS_EXTEND_BACKGROUND, "background", background, NULL))
        return fail("embed");
    int saved;
    if (argc == 7) {
        VipsForeignPngFilter filter = argv[5][0] == 'a' ? VIPS_FOREIGN_PNG_FILTER_ALL : VIPS_FOREIGN_PNG_FILTER_NONE;
        saved = vips_pngsave(placed, argv[2], "filter", filter, "compression", atoi(argv[6]), NULL);
    } else {
        saved = vips_pngsave(placed, argv[2], NULL);
    }
    if (saved) return fail("save");
    vips_area_unref(VIPS_AREA(background));
    g_object_unref(placed);
    g_object_unref(alpha);
    g_object_unref(scaled);
    g_object_unref(in);
    vips_shutdown();
    return 0;
}
