/* PLACEHOLDER so the tree links while this area is being written: delete this
 * file function by function as the real implementations land. */
#include <stddef.h>
#include "seer/tensor.h"
#pragma GCC diagnostic ignored "-Wunused-parameter"
const seer_type_info *seer_type_get(int type) { return NULL; }
const char *seer_type_name(int type) { return NULL; }
size_t seer_row_bytes(int type, int64_t n) { return 0; }
float seer_fp16_to_f32(uint16_t h) { return 0; }
uint16_t seer_f32_to_fp16(float f) { return 0; }
float seer_bf16_to_f32(uint16_t h) { return 0; }
uint16_t seer_f32_to_bf16(float f) { return 0; }
void seer_dequantize_row(int type, const void *src, float *dst, int64_t n) {  }
size_t seer_quantize_row(int type, const float *src, void *dst, int64_t n) { return 0; }
bool seer_can_quantize(int type) { return false; }
float seer_vec_dot(int type, int64_t n, const void *w_row, const void *act) { return 0; }
const char *seer_simd_name(void) { return NULL; }
void seer_simd_force_scalar(bool on) {  }
