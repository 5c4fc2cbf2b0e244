/* How many bytes a tensor of a given type occupies in a GGUF file. The tensor
 * module (seer_type_get) is the authority; the fallback table below holds the
 * block layouts of the ggml types seer knows (ggml numbering, facts of the
 * file format) so the reader still works when the tensor module is built
 * without them. */
#include "gguf/gguf_internal.h"

#include "seer/tensor.h"

typedef struct type_layout {
    int type;
    const char *name;
    int block_size;
    int block_bytes;
} type_layout;

static const type_layout FALLBACK_LAYOUTS[] = {
    {0, "F32", 1, 4},        {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},
    {3, "Q4_1", 32, 20},     {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},
    {8, "Q8_0", 32, 34},     {9, "Q8_1", 32, 36},      {10, "Q2_K", 256, 84},
    {11, "Q3_K", 256, 110},  {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},  {15, "Q8_K", 256, 292},   {30, "BF16", 1, 2},
};

bool gguf_type_layout(int type, int *block_size, size_t *block_bytes, const char **name) {
    const seer_type_info *ti = seer_type_get(type);
    if (ti && ti->block_size > 0 && ti->block_bytes > 0) {
        *block_size = ti->block_size;
        *block_bytes = ti->block_bytes;
        *name = ti->name ? ti->name : "?";
        return true;
    }
    /* Only used when the tensor module does not know the type table at all
     * (e.g. built without it); if it knows F32 it is authoritative. */
    if (seer_type_get(0)) return false;
    for (size_t i = 0; i < sizeof FALLBACK_LAYOUTS / sizeof FALLBACK_LAYOUTS[0]; i++) {
        if (FALLBACK_LAYOUTS[i].type == type) {
            *block_size = FALLBACK_LAYOUTS[i].block_size;
            *block_bytes = (size_t)FALLBACK_LAYOUTS[i].block_bytes;
            *name = FALLBACK_LAYOUTS[i].name;
            return true;
        }
    }
    return false;
}
