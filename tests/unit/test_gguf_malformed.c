/* Hostile and broken GGUF files: a valid file is built with the writer, then
 * truncated at every offset and corrupted field by field. Each must be
 * rejected with its specific error (naming the key or tensor), never crash,
 * and never be accepted when it is wrong. */
#include "testlib.h"

#include <stdint.h>
#include <sys/stat.h>

#include "seer/gguf.h"
#include "seer/tensor.h"

static unsigned char *base;  /* the valid file */
static size_t base_len;

static char *tmp_path(const char *name) {
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", test_tmpdir(), name);
    return buf;
}

static void write_bytes(const char *path, const void *p, size_t n) {
    FILE *fp = fopen(path, "wb");
    if (!fp) { perror(path); exit(2); }
    if (n && fwrite(p, 1, n, fp) != n) { perror(path); exit(2); }
    fclose(fp);
}

static unsigned char *read_all(const char *path, size_t *n) {
    FILE *fp = fopen(path, "rb");
    if (!fp) { perror(path); exit(2); }
    fseek(fp, 0, SEEK_END);
    long len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    unsigned char *p = malloc((size_t)len);
    if (!p || fread(p, 1, (size_t)len, fp) != (size_t)len) { perror(path); exit(2); }
    fclose(fp);
    *n = (size_t)len;
    return p;
}

/* The bytes the writer makes of w (which it frees). */
static unsigned char *written_bytes(gguf_writer *w, size_t *n) {
    const char *path = tmp_path("written.gguf");
    seer_error err;
    CHECK_MSG(gguf_writer_write(w, path, &err) == 0, "%s", err.msg);
    gguf_writer_free(w);
    return read_all(path, n);
}

/* Opens bytes[0..n) as a file; returns the error message ("" on success). */
static const char *open_bytes(const void *bytes, size_t n, bool *opened) {
    static seer_error err;
    const char *path = tmp_path("case.gguf");
    write_bytes(path, bytes, n);
    memset(&err, 0, sizeof err);
    gguf_file *f = gguf_open(path, &err);
    *opened = f != NULL;
    if (f) {
        /* touch every byte the reader vouches for */
        volatile unsigned sink = 0;
        for (uint64_t i = 0; i < f->n_tensors; i++)
            for (uint64_t b = 0; b < f->tensors[i].nbytes; b++) sink += ((const unsigned char *)f->tensors[i].data)[b];
        (void)sink;
        gguf_close(f);
        return "";
    }
    return err.msg;
}

/* The file must be rejected with every substring given (NULL-terminated). */
#define EXPECT_ERROR(bytes, n, ...) expect_error(__LINE__, bytes, n, (const char *[]){__VA_ARGS__, NULL})
static void expect_error(int line, const void *bytes, size_t n, const char **subs) {
    bool opened;
    const char *msg = open_bytes(bytes, n, &opened);
    CHECK_MSG(!opened, "line %d: corrupted file was accepted", line);
    for (; !opened && *subs; subs++)
        CHECK_MSG(strstr(msg, *subs) != NULL, "line %d: error '%s' lacks '%s'", line, msg, *subs);
    CHECK_MSG(opened || strstr(msg, "case.gguf") != NULL, "line %d: error '%s' does not name the file", line, msg);
}

static size_t find(const unsigned char *p, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(p + i, needle, k) == 0) return i;
    fprintf(stderr, "needle '%s' not found\n", needle);
    exit(2);
}

static unsigned char *copy_base(void) {
    unsigned char *p = malloc(base_len);
    memcpy(p, base, base_len);
    return p;
}

static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Fields of a tensor info: they follow the name. */
typedef struct tinfo { size_t n_dims, ne0, ne1, type, offset; } tinfo;
static tinfo tensor_fields(const char *name) {
    size_t at = find(base, base_len, name) + strlen(name);
    return (tinfo){at, at + 4, at + 12, at + 20, at + 24}; /* both test tensors are 2-D */
}

static void build_base(void) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_str(w, "general.architecture", "test");
    const char *toks[] = {"a", "bb", "ccc"};
    gguf_writer_set_arr_str(w, "tok.list", toks, 3);
    gguf_writer_set_u32(w, "x.u32", 7);
    int32_t ints[] = {1, 2, 3, 4};
    gguf_writer_set_arr_i32(w, "x.arr", ints, 4);
    float a[16];
    for (int i = 0; i < 16; i++) a[i] = (float)i;
    unsigned char q[34] = {0};
    gguf_writer_add_tensor(w, "tensor.first", SEER_TYPE_F32, 2, (int64_t[]){8, 2}, a);
    gguf_writer_add_tensor(w, "tensor.second", SEER_TYPE_Q8_0, 2, (int64_t[]){32, 1}, q);
    seer_error err = {{0}};
    const char *path = tmp_path("base.gguf");
    if (gguf_writer_write(w, path, &err) != 0) { fprintf(stderr, "%s\n", err.msg); exit(2); }
    gguf_writer_free(w);
    base = read_all(path, &base_len);
}

/* Every prefix shorter than the end of the last tensor's data is rejected;
 * only the trailing padding may be cut. */
static void test_truncation(void) {
    bool opened;
    const char *msg = open_bytes(base, base_len, &opened);
    CHECK_MSG(opened, "base file rejected: %s", msg);
    size_t data_end = base_len - (32 - 34 % 32); /* the Q8_0 tensor (34 bytes) is last, padded to 32 */
    for (size_t n = 0; n < base_len; n++) {
        msg = open_bytes(base, n, &opened);
        if (n < data_end) {
            CHECK_MSG(!opened, "prefix of %zu bytes accepted", n);
            CHECK_MSG(strstr(msg, "truncated") || strstr(msg, "claims") || strstr(msg, "past the end") ||
                      strstr(msg, "not a GGUF"), "prefix %zu: unexpected error '%s'", n, msg);
        } else {
            CHECK_MSG(opened, "prefix of %zu bytes (only padding cut) rejected: %s", n, msg);
        }
    }
    EXPECT_ERROR(base, 0, "empty");
    EXPECT_ERROR(base, 3, "bad magic");
    /* a cut inside a tensor's data names the tensor and the byte range */
    EXPECT_ERROR(base, data_end - 1, "tensor 'tensor.second' data [", "lies past the end of the file");
}

static void test_header(void) {
    unsigned char *p = copy_base();
    p[0] = 'X';
    EXPECT_ERROR(p, base_len, "not a GGUF file (bad magic)");
    memcpy(p, base, base_len);
    put_u32(p + 4, 1);
    EXPECT_ERROR(p, base_len, "version 1 is not supported");
    put_u32(p + 4, 4);
    EXPECT_ERROR(p, base_len, "unsupported GGUF version 4");
    put_u32(p + 4, 0x03000000u);
    EXPECT_ERROR(p, base_len, "big-endian");
    put_u32(p + 4, 2); /* v2 has the same layout */
    bool opened;
    const char *msg = open_bytes(p, base_len, &opened);
    CHECK_MSG(opened, "v2 rejected: %s", msg);
    memcpy(p, base, base_len);
    put_u64(p + 16, UINT64_MAX); /* n_kv */
    EXPECT_ERROR(p, base_len, "header claims 18446744073709551615 metadata entries");
    memcpy(p, base, base_len);
    put_u64(p + 8, 1ull << 40); /* n_tensors */
    EXPECT_ERROR(p, base_len, "header claims 1099511627776 tensors");
    memcpy(p, base, base_len);
    put_u64(p + 8, 3); /* one more tensor than present: parses into the data section */
    EXPECT_ERROR(p, base_len, "tensor");
    free(p);
}

static void test_metadata(void) {
    unsigned char *p = copy_base();
    /* string length past the end of the file */
    size_t arch = find(base, base_len, "general.architecture") + strlen("general.architecture");
    put_u64(p + arch + 4, 1ull << 40);
    EXPECT_ERROR(p, base_len, "truncated", "'general.architecture'");
    /* unknown value type */
    memcpy(p, base, base_len);
    put_u32(p + arch, 13);
    EXPECT_ERROR(p, base_len, "key 'general.architecture' has unknown value type 13");
    /* huge array count */
    memcpy(p, base, base_len);
    size_t arr = find(base, base_len, "x.arr") + strlen("x.arr");
    put_u64(p + arr + 8, 1ull << 60);
    EXPECT_ERROR(p, base_len, "array 'x.arr' claims 1152921504606846976 elements");
    memcpy(p, base, base_len);
    size_t toks = find(base, base_len, "tok.list") + strlen("tok.list");
    put_u64(p + toks + 8, UINT64_MAX);
    EXPECT_ERROR(p, base_len, "array 'tok.list' claims");
    /* a string element running past the end */
    memcpy(p, base, base_len);
    put_u64(p + toks + 16 + 8 + 1, UINT64_MAX - 3); /* length of "bb" */
    EXPECT_ERROR(p, base_len, "truncated", "'tok.list' (element 1)");
    /* array of unknown element type */
    memcpy(p, base, base_len);
    put_u32(p + arr + 4, 77);
    EXPECT_ERROR(p, base_len, "array of unknown value type 77");
    /* NUL inside a key */
    memcpy(p, base, base_len);
    p[find(base, base_len, "x.u32") + 1] = 0;
    EXPECT_ERROR(p, base_len, "contains a NUL byte");
    /* a duplicate key made by renaming x.arr to x.u32 is impossible (length differs): rename tok.list */
    free(p);

    gguf_writer *w = gguf_writer_new();
    uint32_t v = 1;
    gguf_writer_set_raw(w, "dup.key", GGUF_TYPE_UINT32, 0, &v, 1);
    gguf_writer_set_raw(w, "dup.key", GGUF_TYPE_UINT32, 0, &v, 1);
    size_t n;
    unsigned char *d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, "duplicate metadata key 'dup.key'");
    free(d);

    w = gguf_writer_new();
    gguf_writer_set_raw(w, "nested", GGUF_TYPE_ARRAY, GGUF_TYPE_ARRAY, NULL, 2);
    d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, "key 'nested' is an array of arrays");
    free(d);

    w = gguf_writer_new();
    gguf_writer_set_str(w, "k", "v");
    gguf_writer_set_raw(w, "", GGUF_TYPE_UINT32, 0, &v, 1);
    d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, "metadata entry 1 has an empty key");
    free(d);
}

static void write_with_alignment(gguf_value_type type, const void *value, const char *want) {
    gguf_writer *w = gguf_writer_new();
    gguf_writer_set_raw(w, "general.alignment", type, 0, value, 1);
    float x[4] = {0};
    gguf_writer_add_tensor(w, "t", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
    size_t n;
    unsigned char *d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, want);
    free(d);
}

static void test_alignment(void) {
    uint32_t three = 3, zero = 0;
    int32_t minus = -32;
    write_with_alignment(GGUF_TYPE_UINT32, &three, "bad alignment 3");
    write_with_alignment(GGUF_TYPE_UINT32, &zero, "bad alignment 0");
    write_with_alignment(GGUF_TYPE_INT32, &minus, "bad alignment");
    write_with_alignment(GGUF_TYPE_STRING, "32", "expected an integer");
}

/* general.alignment 1 is legal, but a tensor must still start where its
 * type's fields can be read: an F32 tensor right after a header of each
 * length mod 4 is accepted only when it lands on a multiple of 4. */
static void test_type_alignment(void) {
    int accepted = 0, rejected = 0;
    for (int pad = 0; pad < 4; pad++) {
        gguf_writer *w = gguf_writer_new();
        uint32_t one = 1;
        gguf_writer_set_raw(w, "general.alignment", GGUF_TYPE_UINT32, 0, &one, 1);
        gguf_writer_set_str(w, "pad", &"xxx"[3 - pad]);
        float x[4] = {1, 2, 3, 4};
        gguf_writer_add_tensor(w, "t", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
        size_t n;
        unsigned char *d = written_bytes(w, &n);
        size_t at = n - sizeof x; /* alignment 1: the data is the file's last bytes */
        bool opened;
        const char *msg = open_bytes(d, n, &opened);
        if (at % 4 == 0) {
            CHECK(opened);
            accepted++;
        } else {
            char want[128];
            snprintf(want, sizeof want, "tensor 't' data at byte %zu is not aligned for F32 (needs a multiple of 4)", at);
            CHECK_MSG(!opened && strstr(msg, want), "pad %d: '%s'", pad, msg);
            rejected++;
        }
        free(d);
    }
    CHECK(accepted == 1 && rejected == 3);
}

static void test_tensors(void) {
    tinfo a = tensor_fields("tensor.first"), b = tensor_fields("tensor.second");
    unsigned char *p = copy_base();
    /* lying offsets */
    put_u64(p + b.offset, 1ull << 20);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second' data offset 1048576", "lies past the end of the file");
    put_u64(p + b.offset, UINT64_MAX - 31);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second'", "past the end of the file");
    put_u64(p + b.offset, 64 + 32); /* data runs 2 bytes past the end of the file */
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second' data [", "lies past the end of the file");
    put_u64(p + b.offset, 65);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second' data offset 65 is not a multiple of the alignment 32");
    put_u64(p + b.offset, 32); /* inside tensor.first (64 bytes) */
    EXPECT_ERROR(p, base_len, "tensors 'tensor.first' and 'tensor.second' overlap");
    /* shapes */
    memcpy(p, base, base_len);
    put_u32(p + a.n_dims, 5);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' has 5 dimensions");
    put_u32(p + a.n_dims, 0);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' has 0 dimensions");
    memcpy(p, base, base_len);
    put_u64(p + a.ne0, 1ull << 62);
    put_u64(p + a.ne1, 1ull << 62);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' element count overflows");
    memcpy(p, base, base_len);
    put_u64(p + a.ne1, 1ull << 63);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' dimension 1 is 9223372036854775808 (too large)");
    memcpy(p, base, base_len);
    put_u64(p + a.ne0, 1ull << 61); /* fits in elements, but 4 bytes each overflows the byte size */
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' byte size overflows");
    memcpy(p, base, base_len);
    put_u64(p + a.ne1, 0);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first' is empty (dimension 1 is 0)");
    memcpy(p, base, base_len);
    put_u64(p + a.ne0, 1ull << 40); /* huge but consistent: data past the end */
    EXPECT_ERROR(p, base_len, "tensor 'tensor.first'", "lies past the end of the file");
    /* types */
    memcpy(p, base, base_len);
    put_u32(p + b.type, 99);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second' has unknown or unsupported type 99");
    put_u32(p + b.type, 0x80000000u);
    EXPECT_ERROR(p, base_len, "unknown or unsupported type");
    memcpy(p, base, base_len);
    put_u64(p + b.ne0, 33);
    EXPECT_ERROR(p, base_len, "tensor 'tensor.second' (Q8_0) row length 33 is not a multiple of the block size 32");
    /* duplicate tensor names: rename tensor.second's name to tensor.firs? needs equal length; use the writer */
    free(p);

    gguf_writer *w = gguf_writer_new();
    float x[4] = {0};
    gguf_writer_add_tensor(w, "same", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
    gguf_writer_add_tensor(w, "same", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
    size_t n;
    unsigned char *d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, "duplicate tensor name 'same'");
    free(d);
}

/* Names in errors are escaped: a hostile name cannot smuggle control bytes. */
static void test_escaped_names(void) {
    gguf_writer *w = gguf_writer_new();
    float x[4] = {0};
    gguf_writer_add_tensor(w, "evil\x1b[2Jname", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
    gguf_writer_add_tensor(w, "evil\x1b[2Jname", SEER_TYPE_F32, 1, (int64_t[]){4}, x);
    size_t n;
    unsigned char *d = written_bytes(w, &n);
    EXPECT_ERROR(d, n, "evil\\x1b[2Jname");
    bool opened;
    const char *msg = open_bytes(d, n, &opened);
    CHECK(strchr(msg, 0x1b) == NULL);
    free(d);
}

/* Random byte corruption of the header region: accept or reject, never crash. */
static void test_random_corruption(void) {
    unsigned char *p = malloc(base_len);
    uint32_t state = 12345;
    int accepted = 0;
    for (int iter = 0; iter < 3000; iter++) {
        memcpy(p, base, base_len);
        int flips = 1 + iter % 4;
        for (int k = 0; k < flips; k++) {
            state = state * 1664525u + 1013904223u;
            size_t at = (state >> 8) % (base_len - 96); /* header and tensor infos */
            state = state * 1664525u + 1013904223u;
            p[at] = (unsigned char)(state >> 24);
        }
        bool opened;
        const char *msg = open_bytes(p, base_len, &opened);
        if (opened) accepted++;
        else CHECK_MSG(msg[0] != '\0', "rejected without a message");
    }
    printf("random corruption: %d of 3000 still valid\n", accepted);
    free(p);
}

static void test_not_a_file(void) {
    seer_error err = {{0}};
    CHECK(gguf_open(test_tmpdir(), &err) == NULL && strstr(err.msg, "not a regular file"));
    CHECK(gguf_open(tmp_path("does-not-exist.gguf"), &err) == NULL && strstr(err.msg, "No such file"));
    CHECK(gguf_open(NULL, &err) == NULL);
}

int main(void) {
    build_base();
    test_truncation();
    test_header();
    test_metadata();
    test_alignment();
    test_type_alignment();
    test_tensors();
    test_escaped_names();
    test_random_corruption();
    test_not_a_file();
    free(base);
    TEST_MAIN_END();
}
