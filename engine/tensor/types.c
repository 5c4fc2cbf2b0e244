/* The table of element types: names, block geometry, activation type used by
 * the dot products (as ggml pairs them). */
#include "seer/tensor.h"
#include "tensor/blocks.h"

static const seer_type_info type_table[SEER_TYPE_COUNT] = {
    [SEER_TYPE_F32] = {"F32", 1, 4, SEER_TYPE_F32, _Alignof(float)},
    [SEER_TYPE_F16] = {"F16", 1, 2, SEER_TYPE_F16, _Alignof(uint16_t)},
    [SEER_TYPE_BF16] = {"BF16", 1, 2, SEER_TYPE_BF16, _Alignof(uint16_t)},
    [SEER_TYPE_Q4_0] = {"Q4_0", QK4_0, sizeof(block_q4_0), SEER_TYPE_Q8_0, _Alignof(block_q4_0)},
    [SEER_TYPE_Q4_1] = {"Q4_1", QK4_1, sizeof(block_q4_1), SEER_TYPE_Q8_1, _Alignof(block_q4_1)},
    [SEER_TYPE_Q5_0] = {"Q5_0", QK5_0, sizeof(block_q5_0), SEER_TYPE_Q8_0, _Alignof(block_q5_0)},
    [SEER_TYPE_Q5_1] = {"Q5_1", QK5_1, sizeof(block_q5_1), SEER_TYPE_Q8_1, _Alignof(block_q5_1)},
    [SEER_TYPE_Q8_0] = {"Q8_0", QK8_0, sizeof(block_q8_0), SEER_TYPE_Q8_0, _Alignof(block_q8_0)},
    [SEER_TYPE_Q8_1] = {"Q8_1", QK8_1, sizeof(block_q8_1), SEER_TYPE_Q8_1, _Alignof(block_q8_1)},
    [SEER_TYPE_Q2_K] = {"Q2_K", QK_K, sizeof(block_q2_K), SEER_TYPE_Q8_K, _Alignof(block_q2_K)},
    [SEER_TYPE_Q3_K] = {"Q3_K", QK_K, sizeof(block_q3_K), SEER_TYPE_Q8_K, _Alignof(block_q3_K)},
    [SEER_TYPE_Q4_K] = {"Q4_K", QK_K, sizeof(block_q4_K), SEER_TYPE_Q8_K, _Alignof(block_q4_K)},
    [SEER_TYPE_Q5_K] = {"Q5_K", QK_K, sizeof(block_q5_K), SEER_TYPE_Q8_K, _Alignof(block_q5_K)},
    [SEER_TYPE_Q6_K] = {"Q6_K", QK_K, sizeof(block_q6_K), SEER_TYPE_Q8_K, _Alignof(block_q6_K)},
    [SEER_TYPE_Q8_K] = {"Q8_K", QK_K, sizeof(block_q8_K), SEER_TYPE_Q8_K, _Alignof(block_q8_K)},
    [SEER_TYPE_IQ4_NL] = {"IQ4_NL", 32, sizeof(block_iq4_nl), SEER_TYPE_Q8_0, _Alignof(block_iq4_nl)},
    [SEER_TYPE_IQ4_XS] = {"IQ4_XS", QK_K, sizeof(block_iq4_xs), SEER_TYPE_Q8_K, _Alignof(block_iq4_xs)},
    [SEER_TYPE_IQ2_XXS] = {"IQ2_XXS", QK_K, sizeof(block_iq2_xxs), SEER_TYPE_Q8_K, _Alignof(block_iq2_xxs)},
    [SEER_TYPE_IQ2_XS] = {"IQ2_XS", QK_K, sizeof(block_iq2_xs), SEER_TYPE_Q8_K, _Alignof(block_iq2_xs)},
    [SEER_TYPE_IQ2_S] = {"IQ2_S", QK_K, sizeof(block_iq2_s), SEER_TYPE_Q8_K, _Alignof(block_iq2_s)},
    [SEER_TYPE_IQ3_XXS] = {"IQ3_XXS", QK_K, sizeof(block_iq3_xxs), SEER_TYPE_Q8_K, _Alignof(block_iq3_xxs)},
    [SEER_TYPE_IQ3_S] = {"IQ3_S", QK_K, sizeof(block_iq3_s), SEER_TYPE_Q8_K, _Alignof(block_iq3_s)},
    [SEER_TYPE_IQ1_S] = {"IQ1_S", QK_K, sizeof(block_iq1_s), SEER_TYPE_Q8_K, _Alignof(block_iq1_s)},
    [SEER_TYPE_IQ1_M] = {"IQ1_M", QK_K, sizeof(block_iq1_m), SEER_TYPE_Q8_K, _Alignof(block_iq1_m)},
};

/* The 16 values of the IQ4 formats (ggml's table). */
const int8_t seer_iq4_values[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

const seer_type_info *seer_type_get(int type) {
    if (type < 0 || type >= SEER_TYPE_COUNT || !type_table[type].name) return NULL;
    return &type_table[type];
}

const char *seer_type_name(int type) {
    const seer_type_info *ti = seer_type_get(type);
    return ti ? ti->name : "unknown";
}

size_t seer_row_bytes(int type, int64_t n) {
    const seer_type_info *ti = seer_type_get(type);
    if (!ti || n < 0) return 0;
    return (size_t)(n / ti->block_size) * ti->block_bytes;
}
