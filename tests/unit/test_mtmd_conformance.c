/* Multimodal prompt assembly against llama.cpp's tokens.json for every
 * conformance case:
 *   1. positions: the chunk list of tokens.json → seer_mtmd_positions gives
 *      every chunk's `pos` and the prompt's `n_pos`; M-RoPE image positions
 *      give `decoder_pos` ([t, column, row] offsets) for each image token;
 *   2. tokenization: prompt.txt + the case's images through
 *      seer_mtmd_tokenize_hparams must give identical text chunk ids and the
 *      same n_tokens / n_pos / grid for every image chunk (needs the GGUF
 *      reader and tokenizer; skipped with a message while they are missing).
 * Skips when the conformance folder is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seer/gguf.h"
#include "seer/mtmd.h"
#include "seer/tokenizer.h"
#include "test_image_hparams.h"
#include "test_image_json.h"
#include "testlib.h"

static const char *str_of(const tj *j) { return j && j->type == TJ_STR ? j->str : ""; }
static int int_of(const tj *j) { return j && j->type == TJ_NUM ? (int)j->num : -1; }

/* Chunks as tokens.json lists them. */
static void prompt_from_json(const tj *chunks, bool mrope, seer_mm_prompt *p) {
    memset(p, 0, sizeof *p);
    p->mrope = mrope;
    p->n_chunks = chunks->n;
    p->chunks = calloc((size_t)chunks->n, sizeof *p->chunks);
    for (int i = 0; i < chunks->n; i++) {
        const tj *ch = &chunks->kids[i];
        seer_chunk *c = &p->chunks[i];
        if (!strcmp(str_of(tj_get(ch, "type")), "text")) {
            const tj *t = tj_get(ch, "tokens");
            c->type = SEER_CHUNK_TEXT;
            c->n_tokens = c->n_pos = t->n;
            c->tokens = malloc(sizeof(int32_t) * (size_t)(t->n ? t->n : 1));
            for (int k = 0; k < t->n; k++) c->tokens[k] = (int32_t)t->kids[k].num;
        } else {
            c->type = SEER_CHUNK_IMAGE;
            c->n_tokens = int_of(tj_get(ch, "n_tokens"));
            c->n_pos = int_of(tj_get(ch, "n_pos"));
            c->nx = int_of(tj_get(ch, "nx"));
            c->ny = int_of(tj_get(ch, "ny"));
        }
        p->n_tokens += c->n_tokens;
        p->n_pos += c->n_pos;
    }
}

/* Expected sections (t, h, w, e) of image token k from decoder_pos entry e
 * ([t, x, y] from pos 0): M-RoPE's are offsets (x the column, y the row; e
 * unused); HunyuanVL's (xd, [t, x, y, z]) cells and newlines have t an
 * offset and x the line, y the column, z the image as they are, BOI and EOI
 * offsets on every section. */
static void expected_sections(const tj *e, int32_t P, bool xd, int k, int n, int32_t out[4]) {
    const int t = int_of(&e->kids[0]), x = int_of(&e->kids[1]), y = int_of(&e->kids[2]);
    const int32_t base = !xd || k == 0 || k == n - 1 ? P : 0;
    out[0] = P + t;
    out[1] = base + y;
    out[2] = base + x;
    out[3] = xd && e->n > 3 ? base + int_of(&e->kids[3]) : -1;
}

static void check_positions(const char *name, const tj *tokens, bool mrope, bool xd) {
    const tj *chunks = tj_get(tokens, "chunks");
    seer_mm_prompt p;
    prompt_from_json(chunks, mrope, &p);
    int32_t *start = malloc(sizeof *start * (size_t)p.n_chunks);
    int32_t end = seer_mtmd_positions(&p, 0, start);
    CHECK_MSG(end == int_of(tj_get(tokens, "n_pos")), "%s: prompt ends at position %d, expected %d", name, end,
              int_of(tj_get(tokens, "n_pos")));
    for (int i = 0; i < p.n_chunks; i++) {
        const tj *ch = &chunks->kids[i];
        CHECK_MSG(start[i] == int_of(tj_get(ch, "pos")), "%s: chunk %d starts at %d, expected %d", name, i, start[i],
                  int_of(tj_get(ch, "pos")));
        const tj *dpos = tj_get(ch, "decoder_pos");
        const seer_chunk *c = &p.chunks[i];
        if (!dpos || c->type != SEER_CHUNK_IMAGE) continue;
        CHECK_MSG(dpos->n == c->n_tokens, "%s: decoder_pos has %d entries for %d tokens", name, dpos->n, c->n_tokens);
        int n = c->n_tokens;
        int32_t *pos = malloc(sizeof *pos * 4 * (size_t)n);
        if (xd) seer_xdrope_image_positions(start[i], c->nx, c->ny, int_of(tj_get(ch, "index")), pos);
        else seer_mrope_image_positions(start[i], c->nx, c->ny, pos);
        int bad = 0;
        for (int k = 0; k < n && k < dpos->n; k++) {
            int32_t want[4];
            expected_sections(&dpos->kids[k], start[i], xd, k, n, want);
            if (pos[k] != want[0] || pos[n + k] != want[1] || pos[2 * n + k] != want[2] ||
                (want[3] >= 0 && pos[3 * n + k] != want[3]))
                bad++;
        }
        CHECK_MSG(bad == 0, "%s: %d image tokens of chunk %d with wrong M-RoPE positions", name, bad, i);
        free(pos);
    }
    free(start);
    seer_mm_prompt_free(&p);
}

/* Returns 1 when tokenization was compared, 0 when skipped. */
static int check_tokenize(const char *root, const char *name, const tj *cs, const tj *tokens, const char **skip) {
    char path[1024];
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(cs, "llm")));
    seer_error err = {{0}};
    gguf_file *g = gguf_open(path, &err);
    if (!g) {
        *skip = "GGUF reader not available";
        return 0;
    }
    seer_vocab *vocab = seer_vocab_load(g, &err);
    if (!vocab) {
        gguf_close(g);
        *skip = "tokenizer not available";
        return 0;
    }
    seer_vision_hparams hp;
    bool have_hp = false;
    const tj *mmproj = tj_get(cs, "mmproj");
    if (mmproj && mmproj->type == TJ_STR) {
        int via_engine;
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, mmproj->str);
        have_hp = test_vision_hparams(path, &hp, &via_engine) == 0;
        CHECK_MSG(have_hp, "%s: cannot read %s", name, path);
        hp.preproc = tj_case_preproc(cs);
    }
    const tj *images = tj_get(cs, "images");
    int n_img = images ? images->n : 0;
    seer_image *imgs = calloc((size_t)(n_img ? n_img : 1), sizeof *imgs);
    for (int i = 0; i < n_img; i++) {
        snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, images->kids[i].str);
        CHECK_MSG(seer_image_load(path, 0, &imgs[i], &err) == 0, "%s: %s", name, err.msg);
    }
    snprintf(path, sizeof path, "%s/cases/%s/%s", root, name, str_of(tj_get(cs, "prompt_file")));
    char *prompt = tj_read_file(path, NULL);
    seer_mm_prompt p;
    int rc = seer_mtmd_tokenize_hparams(vocab, have_hp ? &hp : NULL, prompt, imgs, n_img, true, &p, &err);
    CHECK_MSG(rc == 0, "%s: tokenize failed: %s", name, err.msg);
    const tj *chunks = tj_get(tokens, "chunks");
    if (rc == 0) {
        CHECK_MSG(p.n_chunks == chunks->n, "%s: %d chunks, expected %d", name, p.n_chunks, chunks->n);
        CHECK_MSG(p.n_tokens == int_of(tj_get(tokens, "n_tokens")), "%s: %d tokens, expected %d", name, p.n_tokens,
                  int_of(tj_get(tokens, "n_tokens")));
        CHECK_MSG(p.n_pos == int_of(tj_get(tokens, "n_pos")), "%s: %d positions, expected %d", name, p.n_pos,
                  int_of(tj_get(tokens, "n_pos")));
        for (int i = 0; i < p.n_chunks && i < chunks->n; i++) {
            const tj *ch = &chunks->kids[i];
            const seer_chunk *c = &p.chunks[i];
            bool text = !strcmp(str_of(tj_get(ch, "type")), "text");
            CHECK_MSG(text == (c->type == SEER_CHUNK_TEXT), "%s: chunk %d has the wrong type", name, i);
            if (text != (c->type == SEER_CHUNK_TEXT)) break;
            if (text) {
                const tj *t = tj_get(ch, "tokens");
                int first_diff = -1;
                for (int k = 0; k < t->n || k < c->n_tokens; k++)
                    if (k >= t->n || k >= c->n_tokens || c->tokens[k] != (int32_t)t->kids[k].num) {
                        first_diff = k;
                        break;
                    }
                CHECK_MSG(first_diff < 0, "%s: text chunk %d differs at token %d (we have %d tokens: id %d, expected %d: id %d)",
                          name, i, first_diff, c->n_tokens, first_diff < c->n_tokens ? c->tokens[first_diff] : -1, t->n,
                          first_diff < t->n ? (int)t->kids[first_diff].num : -1);
            } else {
                CHECK_MSG(c->n_tokens == int_of(tj_get(ch, "n_tokens")) && c->n_pos == int_of(tj_get(ch, "n_pos")),
                          "%s: image chunk %d has %d tokens / %d positions, expected %d / %d", name, i, c->n_tokens,
                          c->n_pos, int_of(tj_get(ch, "n_tokens")), int_of(tj_get(ch, "n_pos")));
                CHECK_MSG(c->nx == int_of(tj_get(ch, "nx")) && c->ny == int_of(tj_get(ch, "ny")),
                          "%s: image chunk %d grid %dx%d, expected %dx%d", name, i, c->nx, c->ny,
                          int_of(tj_get(ch, "nx")), int_of(tj_get(ch, "ny")));
                CHECK_MSG(seer_pixels_present(&c->pixels), "%s: image chunk %d has no pixels", name, i);
            }
        }
        seer_mm_prompt_free(&p);
    }
    free(prompt);
    for (int i = 0; i < n_img; i++) seer_image_free(&imgs[i]);
    free(imgs);
    seer_vocab_free(vocab);
    gguf_close(g);
    return 1;
}

/* Positions and tokenization of one case; returns 1 when tokenization was compared. */
static int run_case(const char *root, const char *name, void *ctx) {
    (void)ctx;
    char path[1024];
    tj cs, tokens, meta;
    snprintf(path, sizeof path, "%s/cases/%s/case.json", root, name);
    if (tj_load(path, &cs) != 0) return 0;
    snprintf(path, sizeof path, "%s/cases/%s/expected/tokens.json", root, name);
    int have_tokens = tj_load(path, &tokens) == 0;
    snprintf(path, sizeof path, "%s/cases/%s/expected/meta.json", root, name);
    int have_meta = tj_load(path, &meta) == 0;
    CHECK_MSG(have_tokens && have_meta, "%s: tokens.json or meta.json unreadable", name);
    int done = 0;
    if (have_tokens && have_meta) {
        const tj *mrope = tj_get(&meta, "mrope"), *proj = tj_get(&meta, "projector_type");
        check_positions(name, &tokens, mrope && mrope->num != 0, proj && !strcmp(str_of(proj), "hunyuanvl"));
        const char *skip = NULL;
        done = check_tokenize(root, name, &cs, &tokens, &skip);
        printf("%-24s positions checked; tokenization %s%s\n", name, done ? "checked" : "SKIPPED: ", done ? "" : skip);
    }
    if (have_tokens) tj_free(&tokens);
    if (have_meta) tj_free(&meta);
    tj_free(&cs);
    return done;
}

int main(void) {
    int shared;
    int tokenized = test_each_conformance_case(run_case, NULL, &shared);
    if (!tokenized) printf("NOTE: tokenization not compared (GGUF reader / tokenizer not available yet)\n");
    TEST_MAIN_END();
}
