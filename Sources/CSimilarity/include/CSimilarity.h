#ifndef CREATIVE_SIMILARITY_H
#define CREATIVE_SIMILARITY_H

/* SSIM (Wang, Bovik, Sheikh and Simoncelli, IEEE TIP 2004) of a candidate plane `y` against a
 * reference plane `x`: Gaussian-weighted local statistics (sigma 1.5, 11 taps: libvips'
 * gaussmat at a minimum amplitude of 0.0022), C1 = (0.01 x 255)^2, C2 = (0.03 x 255)^2,
 * population statistics. Planes are float, `bands` interleaved, `width` samples a row per band.
 *
 * The image is read a strip at a time: `x` and `y` hold rows [strip_top, strip_top + strip_rows)
 * of an image `height` rows high. The map is summed over rows [out_top, out_bottom) and columns
 * [left, right); the strip must hold every row within 5 of those (or the image's edge, where a
 * window is clamped to the edge row or column). */
typedef struct {
    double sum;   /* the SSIM map summed over the rows, columns and bands asked */
    long count;   /* the samples summed */
} csim_sum;

/* Adds the strip's part of the SSIM map to `total`; returns 0, or -1 when the arguments do not
 * fit together or memory runs out (nothing added then). */
int csim_ssim_strip(const float *x, const float *y, int width, int bands, int height,
                    int strip_top, int strip_rows, int out_top, int out_bottom, int left, int right,
                    csim_sum *total);

/* The window's radius: 5 rows and columns each side. */
int csim_radius(void);

#endif
