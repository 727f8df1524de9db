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

/* True when a GType is (or derives from) an enum: enums are set by nick. */
static inline gboolean cvips_type_is_enum(GType type) { return G_TYPE_IS_ENUM(type); }

#endif
