/* pixels_vs_png: compares a `seer encode --dump-pixels` file with stored 8-bit
 * encoder inputs (PNG files, normalised as (v/255 − mean)/std):
 *
 *   pixels_vs_png DUMP.f32 "m0 m1 m2" "s0 s1 s2" MAX_REL_L2 PNG...
 *
 * Prints one line per input with its relative L2, then the worst; exits 1
 * when the dump holds other sizes or another count, or a distance is over
 * MAX_REL_L2 (a negative bound only prints). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "seer/image.h"

int main(int argc, char **argv) {
    float mean[3], std[3];
    if (argc < 6 || sscanf(argv[2], "%f %f %f", &mean[0], &mean[1], &mean[2]) != 3 ||
        sscanf(argv[3], "%f %f %f", &std[0], &std[1], &std[2]) != 3) {
        fprintf(stderr, "usage: pixels_vs_png DUMP.f32 \"MEAN×3\" \"STD×3\" MAX_REL_L2 PNG...\n");
        return 2;
    }
    const double bound = atof(argv[4]);
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    int bad = 0;
    double worst = 0;
    for (int i = 5; i < argc && !bad; i++) {
        seer_image ref;
        seer_error err;
        if (seer_image_load(argv[i], 0, &ref, &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            bad = 1;
            break;
        }
        size_t n = (size_t)3 * ref.w * ref.h;
        float *got = malloc(n * sizeof *got);
        if (!got || fread(got, sizeof *got, n, f) != n) {
            fprintf(stderr, "%s: the dump ends before input %d (%dx%d)\n", argv[1], i - 5, ref.w, ref.h);
            bad = 1;
        }
        double num = 0, den = 0;
        for (size_t k = 0; !bad && k < n; k++) {
            size_t c = k / ((size_t)ref.w * ref.h), at = k % ((size_t)ref.w * ref.h);
            double r = ((double)ref.rgb[at * 3 + c] / 255.0 - mean[c]) / std[c], d = got[k] - r;
            num += d * d;
            den += r * r;
        }
        double rel = den > 0 ? sqrt(num / den) : sqrt(num);
        if (!bad) printf("input %d %dx%d rel_l2 %.3g\n", i - 5, ref.w, ref.h, rel);
        if (rel > worst) worst = rel;
        if (bound >= 0 && !(rel <= bound)) bad = 1;
        free(got);
        seer_image_free(&ref);
    }
    if (!bad && fgetc(f) != EOF) {
        fprintf(stderr, "%s: more inputs than the %d expected\n", argv[1], argc - 5);
        bad = 1;
    }
    fclose(f);
    printf("worst rel_l2 %.3g\n", worst);
    return bad;
}
