/* GGUF writer → reader round trip: every metadata type, arrays of each, and
 * tensors of several types (copied and generated) come back identical. The
 * byte layout of a tiny file is checked against the format as specified. */
#include "testlib.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>

#include "seer/gguf.h"
#include "seer/tensor.h"

static char *path_in_tmp(const char *name) {
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", test_tmpdir(), name);
    return buf[k];
}

/* Bytes as the GGUF spec lays them out: little-endian, u64 string lengths. */
static void test_exact_bytes(void) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_u32(w, "ab", 7);
    const char *path = path_in_tmp("tiny.gguf");
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    static const unsigned char want[] = {
        'G', 'G', 'U', 'F', 3, 0, 0, 0,  /* magic, version 3 */
        0, 0, 0, 0, 0, 0, 0, 0,          /* 0 tensors */
        1, 0, 0, 0, 0, 0, 0, 0,          /* 1 kv */
        2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', /* key */
        4, 0, 0, 0,                      /* GGUF_TYPE_UINT32 */
        7, 0, 0, 0,                      /* value */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* pad to 64 */
    };
    unsigned char got[256];
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL);
    size_t n = fp ? fread(got, 1, sizeof got, fp) : 0;
    if (fp) fclose(fp);
    CHECK_MSG(n == sizeof want, "tiny file is %zu bytes, expected %zu", n, sizeof want);
    CHECK(n == sizeof want && memcmp(got, want, n) == 0);
}

typedef struct fill_state {
    uint32_t seed;
    int calls;
} fill_state;

static void fill_pattern(void *ctx, void *dst, size_t nbytes) {
    fill_state *s = ctx;
    s->calls++;
    unsigned char *p = dst;
    for (size_t i = 0; i < nbytes; i++) p[i] = (unsigned char)((i * 131u + s->seed) >> 3);
}

static void test_roundtrip(void) {
    gguf_writer *w = gguf_writer_new();
    uint8_t u8 = 200; int8_t i8 = -100; uint16_t u16 = 60000; int16_t i16 = -30000;
    uint32_t u32 = 4000000000u; int32_t i32 = -2000000000; float f32 = 3.25f; uint8_t b = 1;
    uint64_t u64 = 18000000000000000000ull; int64_t i64 = -9000000000000000000ll; double f64 = -1.0 / 3.0;
    gguf_writer_set_raw(w, "t.u8", GGUF_TYPE_UINT8, 0, &u8, 1);
    gguf_writer_set_raw(w, "t.i8", GGUF_TYPE_INT8, 0, &i8, 1);
    gguf_writer_set_raw(w, "t.u16", GGUF_TYPE_UINT16, 0, &u16, 1);
    gguf_writer_set_raw(w, "t.i16", GGUF_TYPE_INT16, 0, &i16, 1);
    gguf_writer_set_raw(w, "t.u32", GGUF_TYPE_UINT32, 0, &u32, 1);
    gguf_writer_set_raw(w, "t.i32", GGUF_TYPE_INT32, 0, &i32, 1);
    gguf_writer_set_raw(w, "t.f32", GGUF_TYPE_FLOAT32, 0, &f32, 1);
    gguf_writer_set_raw(w, "t.bool", GGUF_TYPE_BOOL, 0, &b, 1);
    gguf_writer_set_raw(w, "t.str", GGUF_TYPE_STRING, 0, "héllo\nworld", 1);
    gguf_writer_set_raw(w, "t.u64", GGUF_TYPE_UINT64, 0, &u64, 1);
    gguf_writer_set_raw(w, "t.i64", GGUF_TYPE_INT64, 0, &i64, 1);
    gguf_writer_set_raw(w, "t.f64", GGUF_TYPE_FLOAT64, 0, &f64, 1);
    gguf_writer_set_u32(w, "s.u32", 5);
    gguf_writer_set_u32(w, "s.u32", 6); /* replaces */
    gguf_writer_set_i32(w, "s.i32", -6);
    gguf_writer_set_u64(w, "s.u64", 1ull << 40);
    gguf_writer_set_f32(w, "s.f32", 0.5f);
    gguf_writer_set_bool(w, "s.bool", false);
    gguf_writer_set_str(w, "s.str", "");
    const char *strs[] = {"a", "", "<|im_start|>", "\xe2\x96\x81the"};
    gguf_writer_set_arr_str(w, "a.str", strs, 4);
    int32_t ai[] = {1, -2, 3};
    gguf_writer_set_arr_i32(w, "a.i32", ai, 3);
    float af[] = {0.48145466f, 0.4578275f, 0.40821073f};
    gguf_writer_set_arr_f32(w, "a.f32", af, 3);
    uint8_t au8[] = {9, 8, 7, 6, 5};
    gguf_writer_set_raw(w, "a.u8", GGUF_TYPE_ARRAY, GGUF_TYPE_UINT8, au8, 5);
    int16_t ai16[] = {-1, 2};
    gguf_writer_set_raw(w, "a.i16", GGUF_TYPE_ARRAY, GGUF_TYPE_INT16, ai16, 2);
    uint64_t au64[] = {1ull << 63, 3};
    gguf_writer_set_raw(w, "a.u64", GGUF_TYPE_ARRAY, GGUF_TYPE_UINT64, au64, 2);
    double af64[] = {1e300, -2.5};
    gguf_writer_set_raw(w, "a.f64", GGUF_TYPE_ARRAY, GGUF_TYPE_FLOAT64, af64, 2);
    gguf_writer_set_raw(w, "a.empty", GGUF_TYPE_ARRAY, GGUF_TYPE_INT32, NULL, 0);

    float t_f32[3 * 5];
    for (int i = 0; i < 15; i++) t_f32[i] = (float)i * 0.25f - 1.0f;
    uint16_t t_f16[64];
    for (int i = 0; i < 64; i++) t_f16[i] = (uint16_t)(0x3c00 + i);
    unsigned char t_q8[2 * 34], t_q4k[3 * 144];
    for (size_t i = 0; i < sizeof t_q8; i++) t_q8[i] = (unsigned char)(i * 7);
    for (size_t i = 0; i < sizeof t_q4k; i++) t_q4k[i] = (unsigned char)(i * 13 + 1);
    gguf_writer_add_tensor(w, "a.f32", SEER_TYPE_F32, 2, (int64_t[]){5, 3}, t_f32);
    gguf_writer_add_tensor(w, "b.f16", SEER_TYPE_F16, 4, (int64_t[]){2, 2, 4, 4}, t_f16);
    gguf_writer_add_tensor(w, "c.q8_0", SEER_TYPE_Q8_0, 1, (int64_t[]){64}, t_q8);
    gguf_writer_add_tensor(w, "d.q4_k", SEER_TYPE_Q4_K, 3, (int64_t[]){256, 1, 3}, t_q4k);
    fill_state fs = {42, 0};
    gguf_writer_add_tensor_fn(w, "e.gen", SEER_TYPE_Q6_K, 2, (int64_t[]){512, 2}, fill_pattern, &fs);

    const char *path = path_in_tmp("all.gguf");
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    CHECK(fs.calls == 1);

    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s", err.msg);
    if (!f) return;
    CHECK(f->version == 3);
    CHECK(f->alignment == 32);
    CHECK(f->n_kv == 26); /* 12 scalars via raw, 6 via setters (one replaced), 8 arrays */
    CHECK(f->n_tensors == 5);
    CHECK(gguf_get_int(f, "t.u8", 0) == 200);
    CHECK(gguf_get_int(f, "t.i8", 0) == -100);
    CHECK(gguf_get_int(f, "t.u16", 0) == 60000);
    CHECK(gguf_get_int(f, "t.i16", 0) == -30000);
    CHECK(gguf_get_int(f, "t.u32", 0) == 4000000000ll);
    CHECK(gguf_get_int(f, "t.i32", 0) == -2000000000);
    CHECK(gguf_get_float(f, "t.f32", 0) == 3.25);
    CHECK(gguf_get_bool(f, "t.bool", false) == true);
    CHECK(gguf_get_str(f, "t.str") && strcmp(gguf_get_str(f, "t.str"), "héllo\nworld") == 0);
    CHECK(gguf_find_kv(f, "t.u64")->v.u64 == u64);
    CHECK(gguf_get_int(f, "t.u64", -7) == -7); /* does not fit int64 */
    CHECK(gguf_get_int(f, "t.i64", 0) == i64);
    CHECK(gguf_get_float(f, "t.f64", 0) == f64);
    CHECK(gguf_get_int(f, "s.u32", 0) == 6);
    CHECK(gguf_get_int(f, "s.i32", 0) == -6);
    CHECK(gguf_get_int(f, "s.u64", 0) == 1ll << 40);
    CHECK(gguf_get_float(f, "s.f32", 0) == 0.5);
    CHECK(gguf_get_float(f, "s.u32", 0) == 6.0); /* ints read as floats */
    CHECK(gguf_get_bool(f, "s.bool", true) == false);
    CHECK(gguf_get_str(f, "s.str") && gguf_get_str(f, "s.str")[0] == '\0');
    /* type mismatches fall back to the default */
    CHECK(gguf_get_int(f, "t.f32", 11) == 11);
    CHECK(gguf_get_str(f, "t.u8") == NULL);
    CHECK(gguf_get_bool(f, "t.u8", false) == false);
    CHECK(gguf_get_int(f, "missing", 12) == 12);
    CHECK(gguf_get_arr_n(f, "t.u8") == 0);

    const gguf_kv *kv = gguf_find_kv(f, "a.str");
    CHECK(kv && kv->type == GGUF_TYPE_ARRAY && kv->arr_type == GGUF_TYPE_STRING && kv->n == 4);
    for (int i = 0; kv && i < 4; i++) {
        CHECK(strcmp(kv->arr_str[i], strs[i]) == 0);
        CHECK(kv->arr_str_len[i] == strlen(strs[i]));
    }
    CHECK(gguf_get_arr_n(f, "a.i32") == 3);
    for (int i = 0; i < 3; i++) CHECK(gguf_get_arr_int(f, "a.i32", (uint64_t)i, 0) == ai[i]);
    CHECK(gguf_get_arr_int(f, "a.i32", 3, 99) == 99);
    for (int i = 0; i < 3; i++) CHECK(gguf_get_arr_float(f, "a.f32", (uint64_t)i, 0) == (double)af[i]);
    for (int i = 0; i < 5; i++) CHECK(gguf_get_arr_int(f, "a.u8", (uint64_t)i, 0) == au8[i]);
    CHECK(gguf_get_arr_int(f, "a.i16", 0, 0) == -1 && gguf_get_arr_int(f, "a.i16", 1, 0) == 2);
    CHECK(gguf_get_arr_int(f, "a.u64", 0, -5) == -5 && gguf_get_arr_int(f, "a.u64", 1, 0) == 3);
    CHECK(gguf_get_arr_float(f, "a.f64", 0, 0) == 1e300 && gguf_get_arr_float(f, "a.f64", 1, 0) == -2.5);
    CHECK(gguf_get_arr_float(f, "a.i32", 1, 0) == -2.0);
    CHECK(gguf_find_kv(f, "a.empty") && gguf_get_arr_n(f, "a.empty") == 0);
    CHECK(strcmp(gguf_value_type_name(GGUF_TYPE_FLOAT32), "f32") == 0);

    const gguf_tensor *t = gguf_find_tensor(f, "a.f32");
    CHECK(t && t->type == SEER_TYPE_F32 && t->n_dims == 2 && t->ne[0] == 5 && t->ne[1] == 3 && t->ne[2] == 1);
    CHECK(t && t->nbytes == sizeof t_f32 && memcmp(t->data, t_f32, sizeof t_f32) == 0);
    t = gguf_find_tensor(f, "b.f16");
    CHECK(t && t->n_dims == 4 && t->ne[3] == 4 && t->nbytes == sizeof t_f16 && memcmp(t->data, t_f16, sizeof t_f16) == 0);
    t = gguf_find_tensor(f, "c.q8_0");
    CHECK(t && t->type == SEER_TYPE_Q8_0 && t->nbytes == sizeof t_q8 && memcmp(t->data, t_q8, sizeof t_q8) == 0);
    t = gguf_find_tensor(f, "d.q4_k");
    CHECK(t && t->n_dims == 3 && t->nbytes == sizeof t_q4k && memcmp(t->data, t_q4k, sizeof t_q4k) == 0);
    t = gguf_find_tensor(f, "e.gen");
    CHECK(t && t->type == SEER_TYPE_Q6_K && t->nbytes == 4 * 210);
    if (t) {
        unsigned char want[4 * 210];
        fill_state s2 = {42, 0};
        fill_pattern(&s2, want, sizeof want);
        CHECK(memcmp(t->data, want, sizeof want) == 0);
        /* read through the file, not the mapping: the same bytes, from any
         * offset (a row of 210 at row 2, an unaligned run across rows) */
        unsigned char got[4 * 210];
        memset(got, 0xEE, sizeof got);
        gguf_read_at(f, (const char *)t->data + 2 * 210, got, 210);
        CHECK(memcmp(got, want + 2 * 210, 210) == 0 && got[210] == 0xEE);
        gguf_read_at(f, (const char *)t->data + 7, got, 500);
        CHECK(memcmp(got, want + 7, 500) == 0);
    }
    for (uint64_t i = 0; i < f->n_tensors; i++) CHECK(f->tensors[i].offset % 32 == 0);
    CHECK(gguf_find_tensor(f, "nope") == NULL);
    gguf_close(f);
}

static void test_alignment_and_errors(void) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_u32(w, "general.alignment", 64);
    float x[3] = {1, 2, 3};
    gguf_writer_add_tensor(w, "x", SEER_TYPE_F32, 1, (int64_t[]){3}, x);
    gguf_writer_add_tensor(w, "y", SEER_TYPE_F32, 1, (int64_t[]){3}, x);
    const char *path = path_in_tmp("align64.gguf");
    seer_error err = {{0}};
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    gguf_file *f = gguf_open(path, &err);
    CHECK_MSG(f != NULL, "%s", err.msg);
    if (f) {
        CHECK(f->alignment == 64 && f->data_offset % 64 == 0);
        CHECK(gguf_find_tensor(f, "y") && gguf_find_tensor(f, "y")->offset == 64);
        gguf_close(f);
    }

    /* setter errors surface at write time and nothing is written */
    w = gguf_writer_new();
    gguf_writer_add_tensor(w, "bad", 999, 1, (int64_t[]){32}, NULL);
    path = path_in_tmp("never.gguf");
    CHECK(gguf_writer_write(w, path, &err) == -1);
    CHECK_MSG(strstr(err.msg, "unknown type") && strstr(err.msg, "'bad'"), "%s", err.msg);
    gguf_writer_free(w);
    CHECK(fopen(path, "rb") == NULL);

    w = gguf_writer_new();
    gguf_writer_add_tensor(w, "q", SEER_TYPE_Q8_0, 1, (int64_t[]){33}, NULL);
    CHECK(gguf_writer_write(w, path_in_tmp("never2.gguf"), &err) == -1);
    CHECK_MSG(strstr(err.msg, "block size"), "%s", err.msg);
    gguf_writer_free(w);

    w = gguf_writer_new();
    CHECK(gguf_writer_write(w, "/nonexistent-dir/x.gguf", &err) == -1);
    CHECK(strstr(err.msg, "/nonexistent-dir/x.gguf") != NULL);
    gguf_writer_free(w);

    /* the atomic write leaves no temporary files behind */
    DIR *d = opendir(test_tmpdir());
    struct dirent *e;
    while (d && (e = readdir(d))) CHECK_MSG(!strstr(e->d_name, ".tmp"), "left over: %s", e->d_name);
    if (d) closedir(d);
}

int main(void) {
    test_exact_bytes();
    test_roundtrip();
    test_alignment_and_errors();
    TEST_MAIN_END();
}
