#include "CSimilarity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RADIUS 5
#define TAPS (2 * RADIUS + 1)
/* The five local statistics: means of x and y, of x squared, y squared and x times y. */
#define STATS 5

static const double c1 = (0.01 * 255) * (0.01 * 255);
static const double c2 = (0.03 * 255) * (0.03 * 255);

int csim_radius(void) { return RADIUS; }

/* libvips' gaussmat for sigma 1.5 at a minimum amplitude of 0.0022: exp(-d^2 / (2 sigma^2)) for
 * d in -5...5, divided by their sum. */
static void gaussian(double weights[TAPS]) {
    double values[TAPS], sum = 0;
    for (int tap = 0; tap < TAPS; tap++) {
        double d = tap - RADIUS;
        values[tap] = exp(-(d * d) / (2 * 1.5 * 1.5));
        sum += values[tap];
    }
    for (int tap = 0; tap < TAPS; tap++) weights[tap] = values[tap] / sum;
}

static int clamp(int value, int low, int high) { return value < low ? low : value > high ? high : value; }

/* The five statistics of one image row, blurred along the row: `out` holds STATS rows of
 * `samples` values. `products` is scratch of STATS * (samples + 2 * RADIUS * bands). In double:
 * a variance is the difference of two terms near 65,025, which float leaves 3e-4 off
 * scikit-image's SSIM on a 1170x180 render. */
static void blur_row(const float *x, const float *y, int width, int bands, const double weights[TAPS],
                     double *products, double *out) {
    int samples = width * bands, padded = samples + 2 * RADIUS * bands;
    double *px = products, *py = px + padded, *pxx = py + padded, *pyy = pxx + padded, *pxy = pyy + padded;
    for (int i = 0; i < padded; i++) {
        int column = clamp(i / bands - RADIUS, 0, width - 1);
        int index = column * bands + i % bands;
        double a = x[index], b = y[index];
        px[i] = a; py[i] = b; pxx[i] = a * a; pyy[i] = b * b; pxy[i] = a * b;
    }
    for (int stat = 0; stat < STATS; stat++) {
        const double *source = products + stat * padded;
        double *target = out + stat * samples;
        for (int i = 0; i < samples; i++) {
            double total = 0;
            for (int tap = 0; tap < TAPS; tap++) total += weights[tap] * source[i + tap * bands];
            target[i] = total;
        }
    }
}

int csim_ssim_strip(const float *x, const float *y, int width, int bands, int height,
                    int strip_top, int strip_rows, int out_top, int out_bottom, int left, int right,
                    csim_sum *total) {
    if (!x || !y || !total || width < 1 || bands < 1 || height < 1 || strip_rows < 1) return -1;
    if (out_top < 0 || out_bottom > height || out_top >= out_bottom || left < 0 || right > width || left >= right) return -1;
    int first = clamp(out_top - RADIUS, 0, height - 1), last = clamp(out_bottom - 1 + RADIUS, 0, height - 1);
    if (first < strip_top || last >= strip_top + strip_rows) return -1;
    size_t samples = (size_t) width * bands;
    size_t padded = samples + 2 * RADIUS * bands;
    /* A ring of the blurred rows the window reads: row r at slot r % TAPS. */
    double *ring = malloc(sizeof(double) * STATS * samples * TAPS);
    double *products = malloc(sizeof(double) * STATS * padded);
    double *column = malloc(sizeof(double) * STATS * samples);
    if (!ring || !products || !column) {
        free(ring); free(products); free(column);
        return -1;
    }
    double weights[TAPS];
    gaussian(weights);
    int ready = first - 1; /* the last image row blurred into the ring */
    double sum = 0;
    for (int row = out_top; row < out_bottom; row++) {
        int need = clamp(row + RADIUS, 0, height - 1);
        for (int next = (ready < row - RADIUS ? clamp(row - RADIUS, 0, height - 1) : ready + 1); next <= need; next++) {
            size_t offset = (size_t) (next - strip_top) * samples;
            blur_row(x + offset, y + offset, width, bands, weights, products, ring + (size_t) (next % TAPS) * STATS * samples);
            ready = next;
        }
        memset(column, 0, sizeof(double) * STATS * samples);
        for (int tap = 0; tap < TAPS; tap++) {
            int source = clamp(row + tap - RADIUS, 0, height - 1);
            const double *blurred = ring + (size_t) (source % TAPS) * STATS * samples;
            double weight = weights[tap];
            for (size_t i = 0; i < STATS * samples; i++) column[i] += weight * blurred[i];
        }
        const double *mx = column, *my = mx + samples, *mxx = my + samples, *myy = mxx + samples, *mxy = myy + samples;
        double rowSum = 0;
        for (size_t i = (size_t) left * bands; i < (size_t) right * bands; i++) {
            double mxmx = mx[i] * mx[i], mymy = my[i] * my[i], mxmy = mx[i] * my[i];
            double vx = mxx[i] - mxmx, vy = myy[i] - mymy, cov = mxy[i] - mxmy;
            rowSum += ((2 * mxmy + c1) * (2 * cov + c2)) / ((mxmx + mymy + c1) * (vx + vy + c2));
        }
        sum += rowSum;
    }
    free(ring); free(products); free(column);
    total->sum += sum;
    total->count += (long) (out_bottom - out_top) * (right - left) * bands;
    return 0;
}
