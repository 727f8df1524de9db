#ifndef CREATIVE_CVIPS_SHIM_H
#define CREATIVE_CVIPS_SHIM_H

#include <malloc.h>
#include <string.h>
#include <vips/vips.h>

/* glibc's malloc arenas for the whole process (M_ARENA_MAX is a macro Swift cannot see). */
static inline void cvips_limit_malloc_arenas(int arenas) { mallopt(M_ARENA_MAX, arenas); }

/* Swift does not import function-like macros: these return the GTypes the
 * generic operation call needs. */
static inline GType cvips_type_int(void) { return G_TYPE_INT; }
static inline GType cvips_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType cvips_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType cvips_type_string(void) { return G_TYPE_STRING; }
static inline GType cvips_type_array_double(void) { return VIPS_TYPE_ARRAY_DOUBLE; }
static inline GType cvips_type_blob(void) { return VIPS_TYPE_BLOB; }
static inline GType cvips_type_image(void) { return VIPS_TYPE_IMAGE; }
static inline GType cvips_type_array_image(void) { return VIPS_TYPE_ARRAY_IMAGE; }

/* Blocks every operation under `base` (a class name, e.g. "VipsForeignSave") that libvips flags
 * untrusted. vips_block_untrusted_set() does this for every operation, and to read the flags it
 * initialises the class of each of them (a few ms of every start); under one base only that
 * subtree's classes are initialised. Nothing when `base` is not a known type. */
static inline void *cvips_block_if_untrusted(VipsObjectClass *object_class, void *unused) {
    (void)unused;
    VipsOperationClass *operation_class = (VipsOperationClass *)object_class;
    if (operation_class->flags & VIPS_OPERATION_UNTRUSTED) {
        vips_operation_block_set(G_OBJECT_CLASS_NAME(object_class), TRUE);
    }
    return NULL;
}
static inline void cvips_block_untrusted_under(const char *base) {
    GType type = g_type_from_name(base);
    if (type) vips_class_map_all(type, cvips_block_if_untrusted, NULL);
}

/* vips_operation_new(nickname) finds the type in a table libvips builds on first use by
 * initialising the class of every operation (a few ms of a short run). This makes the operation
 * from a GType name the caller knows instead, once the type's own nickname is checked to be
 * `nickname`; NULL when this libvips has no such type or names it otherwise (then the caller
 * uses vips_operation_new). Blocking is checked when the operation is built, as for any other. */
static inline VipsOperation *cvips_operation_new_of_type(const char *type_name, const char *nickname) {
    GType type = g_type_from_name(type_name);
    if (!type || !g_type_is_a(type, VIPS_TYPE_OPERATION) || G_TYPE_IS_ABSTRACT(type)) return NULL;
    VipsObjectClass *object_class = VIPS_OBJECT_CLASS(g_type_class_ref(type));
    int same = object_class->nickname && strcmp(object_class->nickname, nickname) == 0;
    g_type_class_unref(object_class);
    return same ? VIPS_OPERATION(g_object_new(type, NULL)) : NULL;
}

/* How many operations libvips flags untrusted are not blocked (for the start-up's tests). */
static inline void *cvips_count_unblocked_untrusted(VipsObjectClass *object_class, void *count) {
    VipsOperationClass *operation_class = (VipsOperationClass *)object_class;
    if ((operation_class->flags & VIPS_OPERATION_UNTRUSTED) && !(operation_class->flags & VIPS_OPERATION_BLOCKED)) {
        *(int *)count += 1;
    }
    return NULL;
}
static inline int cvips_unblocked_untrusted(void) {
    int count = 0;
    vips_class_map_all(g_type_from_name("VipsOperation"), cvips_count_unblocked_untrusted, &count);
    return count;
}

/* An image whose pixels are painted on demand: `width` x `height`, 8-bit sRGB, 3 bands, whole
 * rows at a time (FATSTRIP); each region asked for is filled by `paint(region, painter)`, which
 * returns 0 (or -1 on failure), from libvips' worker threads. NULL when libvips refuses it. */
typedef int (*cvips_paint_fn)(VipsRegion *region, void *painter);
typedef struct { cvips_paint_fn paint; void *painter; } cvips_painter;
static inline int cvips_paint_region(VipsRegion *out, void *seq, void *a, void *b, gboolean *stop) {
    (void)seq; (void)b; (void)stop;
    const cvips_painter *painter = (const cvips_painter *)a;
    return painter->paint(out, painter->painter);
}
static inline void cvips_free_painter(VipsImage *image, void *painter) { (void)image; g_free(painter); }
static inline VipsImage *cvips_painted_image(int width, int height, cvips_paint_fn paint, void *painter) {
    VipsImage *image = vips_image_new();
    cvips_painter *held = g_new(cvips_painter, 1);
    held->paint = paint;
    held->painter = painter;
    g_signal_connect(image, "close", G_CALLBACK(cvips_free_painter), held);
    vips_image_init_fields(image, width, height, 3, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                           VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_FATSTRIP, NULL) ||
        vips_image_generate(image, NULL, cvips_paint_region, NULL, held, NULL)) {
        g_object_unref(image);
        return NULL;
    }
    return image;
}
/* A region's rectangle, the address of its pixel (x, y) and the bytes from one row to the next. */
static inline VipsRect cvips_region_valid(VipsRegion *region) { return region->valid; }
static inline VipsPel *cvips_region_address(VipsRegion *region, int x, int y) { return VIPS_REGION_ADDR(region, x, y); }
static inline size_t cvips_region_row_bytes(VipsRegion *region) { return VIPS_REGION_LSKIP(region); }

/* True when a GType is (or derives from) an enum: enums are set by nick. */
static inline gboolean cvips_type_is_enum(GType type) { return G_TYPE_IS_ENUM(type); }

#endif
