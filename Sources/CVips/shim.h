#ifndef CREATIVE_CVIPS_SHIM_H
#define CREATIVE_CVIPS_SHIM_H

#include <malloc.h>
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

/* True when a GType is (or derives from) an enum: enums are set by nick. */
static inline gboolean cvips_type_is_enum(GType type) { return G_TYPE_IS_ENUM(type); }

#endif
