/* The i-quant codebooks expanded from their level codes (iq_grids_data.c)
 * into values, once. */
#include <pthread.h>

#include "tensor/iq_grids_internal.h"

static seer_iq_grids grids;
static pthread_once_t grids_once = PTHREAD_ONCE_INIT;

/* n points of `width` values, each value `bits` bits of the code (first
 * value lowest) naming one of `levels`. */
static void expand(const uint16_t *codes, int n, int width, int bits, const int8_t *levels, int8_t *out) {
    for (int i = 0; i < n; i++)
        for (int k = 0; k < width; k++) out[i * width + k] = levels[(codes[i] >> (bits * k)) & ((1 << bits) - 1)];
}

static void expand_all(void) {
    static const int8_t iq2[] = {8, 25, 43};
    static const int8_t iq3xxs[] = {4, 12, 20, 28, 36, 44, 52, 62};
    static const int8_t iq3s[] = {1, 3, 5, 7, 9, 11, 13, 15};
    static const int8_t iq1[] = {-1, 0, 1};
    expand(seer_iq2xxs_codes, 256, 8, 2, iq2, &grids.iq2xxs[0][0]);
    expand(seer_iq2xs_codes, 512, 8, 2, iq2, &grids.iq2xs[0][0]);
    expand(seer_iq2s_codes, 1024, 8, 2, iq2, &grids.iq2s[0][0]);
    expand(seer_iq3xxs_codes, 256, 4, 3, iq3xxs, &grids.iq3xxs[0][0]);
    expand(seer_iq3s_codes, 512, 4, 3, iq3s, &grids.iq3s[0][0]);
    expand(seer_iq1s_codes, 2048, 8, 2, iq1, &grids.iq1s[0][0]);
    for (int s = 0; s < 128; s++) {
        int odd = 0;
        for (int b = 0; b < 7; b++) odd ^= (s >> b) & 1;
        grids.signs7[s] = (uint8_t)(s | odd << 7);
        uint64_t mask = 0;
        for (int b = 0; b < 8; b++) mask |= (uint64_t)((grids.signs7[s] >> b) & 1 ? 0xFF : 0x01) << 8 * b;
        grids.masks7[s] = (int64_t)mask;
    }
}

const seer_iq_grids *seer_iq_grids_get(void) {
    pthread_once(&grids_once, expand_all);
    return &grids;
}
