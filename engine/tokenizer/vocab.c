/* Loading the vocabulary from GGUF tokenizer.* keys, with the defaults and
 * the special-token bookkeeping llama.cpp applies (EOG set, forced control
 * attributes, special-token list for parse_special). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenizer/unicode.h"
#include "tokenizer/vocab_internal.h"

/* ---- string -> int map ---- */

static uint32_t hash_bytes(const char *s, size_t len) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) { h ^= (unsigned char)s[i]; h *= 16777619u; }
    return h;
}

static int str_map_init(str_map *m, uint32_t cap) {
    uint32_t nslots = 16;
    while (nslots < cap * 2) nslots <<= 1;
    m->slots = calloc(nslots, sizeof *m->slots);
    m->keys = malloc((size_t)cap * sizeof *m->keys + 1);
    m->key_lens = malloc((size_t)cap * sizeof *m->key_lens + 1);
    m->values = malloc((size_t)cap * sizeof *m->values + 1);
    m->mask = nslots - 1;
    m->n = 0;
    m->cap = cap;
    return (m->slots && m->keys && m->key_lens && m->values) ? 0 : -1;
}

static void str_map_free(str_map *m) {
    free(m->slots); free(m->keys); free(m->key_lens); free(m->values);
}

/* Inserts key (not copied: it must outlive the map). overwrite decides
 * whether an existing key takes the new value. */
static void str_map_put(str_map *m, const char *key, size_t len, int32_t value, bool overwrite) {
    uint32_t i = hash_bytes(key, len) & m->mask;
    for (;; i = (i + 1) & m->mask) {
        uint32_t e = m->slots[i];
        if (e == 0) break;
        e--;
        if (m->key_lens[e] == len && memcmp(m->keys[e], key, len) == 0) {
            if (overwrite) m->values[e] = value;
            return;
        }
    }
    if (m->n >= m->cap) return; /* cannot happen: sized for every key */
    m->keys[m->n] = key;
    m->key_lens[m->n] = (uint32_t)len;
    m->values[m->n] = value;
    m->slots[i] = ++m->n;
}

int32_t str_map_get(const str_map *m, const char *key, size_t len) {
    if (!m->slots) return -1;
    uint32_t i = hash_bytes(key, len) & m->mask;
    for (;; i = (i + 1) & m->mask) {
        uint32_t e = m->slots[i];
        if (e == 0) return -1;
        e--;
        if (m->key_lens[e] == len && memcmp(m->keys[e], key, len) == 0) return m->values[e];
    }
}

/* ---- loading ---- */

static char *dup_str(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n + 1);
    return d;
}

static const gguf_kv *find_array(const gguf_file *f, const char *key, gguf_value_type elem) {
    const gguf_kv *kv = gguf_find_kv(f, key);
    if (!kv || kv->type != GGUF_TYPE_ARRAY || kv->arr_type != elem) return NULL;
    return kv;
}

static bool name_in(const char *name, const char *const *list) {
    for (int i = 0; list[i]; i++)
        if (strcmp(name, list[i]) == 0) return true;
    return false;
}

/* Which pre-tokenizer a byte-level BPE tokenizer.ggml.pre names, as llama.cpp
 * maps the names (a missing key means its default regexes). False for a name
 * seer does not implement: tokenizing with another name's regexes would give
 * the model text split as it never saw in training. Some names also change
 * vocabulary defaults. */
static bool pretok_from_name(const char *pre, pretok_kind *kind, bool *ignore_merges, bool *add_bos, int32_t *bos) {
    static const char *const llama3[] = {"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral",
                                         "midm-2.0", "lfm2", "jina-v5-nano", NULL};
    static const char *const llama3_regex_only[] = {"smaug-bpe", "dbrx", NULL};
    static const char *const glm[] = {"glm4", "chatglm-bpe", NULL};
    static const char *const qwen2[] = {"qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez", "stablelm2",
                                        "hunyuan", "solar-open", "grok-2", "bailingmoe", "bailingmoe2", "llada-moe", NULL};
    static const char *const starcoder[] = {"starcoder", "refact", "command-r", "smollm", "codeshell", "exaone",
                                            "minerva-7b", "mellum2", NULL};
    static const char *const gpt2[] = {"gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es",
                                       "jina-v2-de", "jina-v1-en", "jina-v2-code", "roberta-bpe", "a.x-4.0", "mellum",
                                       "modern-bert", "mpt", "olmo", "jais", "trillion", "granite-docling", "exaone4",
                                       NULL};
    static const char *const gpt4o[] = {"gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2", NULL};
    static const char *const deepseek_v3[] = {"deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4", NULL};
    static const struct { const char *const *names; pretok_kind kind; } plain[] = {
        {llama3_regex_only, PRETOK_LLAMA3}, {qwen2, PRETOK_QWEN2}, {starcoder, PRETOK_STARCODER},
        {gpt2, PRETOK_GPT2}, {gpt4o, PRETOK_GPT4O}, {deepseek_v3, PRETOK_DEEPSEEK_V3},
    };
    static const struct { const char *name; pretok_kind kind; } single[] = {
        {"default", PRETOK_DEFAULT},           {"qwen35", PRETOK_QWEN35},   {"falcon", PRETOK_FALCON},
        {"deepseek-llm", PRETOK_DEEPSEEK_LLM}, {"deepseek-coder", PRETOK_DEEPSEEK_CODER}, {"kimi-k2", PRETOK_KIMI_K2},
        {"gemma4", PRETOK_GEMMA4},             {"granite-embed-multi-311m", PRETOK_GEMMA4},
        {"ufakzeka", PRETOK_UFAKZEKA},         {"seed-coder", PRETOK_SEED_CODER},     {"laguna", PRETOK_LAGUNA},
    };
    if (!pre) { *kind = PRETOK_DEFAULT; return true; }
    if (name_in(pre, llama3) || strcmp(pre, "tekken") == 0) {
        /* Llama-3 and Tekken vocabularies take whole words that are tokens as they are. */
        *ignore_merges = true;
        *add_bos = true;
        *kind = name_in(pre, llama3) ? PRETOK_LLAMA3 : PRETOK_TEKKEN;
        return true;
    }
    if (strcmp(pre, "minicpm5") == 0) { *ignore_merges = true; *kind = PRETOK_MINICPM5; return true; }
    if (name_in(pre, glm)) { *bos = -1; *kind = PRETOK_LLAMA3; return true; }
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (name_in(pre, plain[i].names)) { *kind = plain[i].kind; return true; }
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
        if (strcmp(pre, single[i].name) == 0) { *kind = single[i].kind; return true; }
    return false;
}

/* Id of the first text of list that is a token, -1 if none; the token
 * becomes a control token, as llama.cpp forces for the tokens it detects by text. */
static int32_t detect_by_text(seer_vocab *v, const char *const *list) {
    for (int i = 0; list[i]; i++) {
        int32_t id = str_map_get(&v->token_ids, list[i], strlen(list[i]));
        if (id >= 0) {
            v->attr[id] = TOK_ATTR_CONTROL;
            return id;
        }
    }
    return -1;
}

static void eog_add(seer_vocab *v, int32_t id) {
    if (id < 0 || id >= v->n_tokens) return;
    for (int i = 0; i < v->n_eog; i++)
        if (v->eog[i] == id) return;
    int32_t *grown = realloc(v->eog, (size_t)(v->n_eog + 1) * sizeof *grown);
    if (!grown) return;
    v->eog = grown;
    v->eog[v->n_eog++] = id;
}

static int32_t key_token_id(const gguf_file *f, const char *key, int32_t def, int32_t n_tokens) {
    int64_t id = gguf_get_int(f, key, -1);
    if (id < 0 || id >= n_tokens) return def; /* absent or out of range: keep the default */
    return (int32_t)id;
}

static void set_special_tokens(seer_vocab *v, const gguf_file *f) {
    static const char *const eot_texts[] = {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>",
                                            "<|endoftext|>", "<|end_of_text|>", "<EOT>", "_<EOT>",
                                            "<\xef\xbd\x9c" "end\xe2\x96\x81" "of\xe2\x96\x81" "sentence\xef\xbd\x9c>",
                                            "<end_of_utterance>", NULL};
    static const char *const eom_texts[] = {"<|eom_id|>", NULL};
    static const char *const fim_pre_texts[] = {"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>",
                                                "<\xef\xbd\x9c" "fim\xe2\x96\x81" "begin\xef\xbd\x9c>", "<PRE>",
                                                "\xe2\x96\x81<PRE>", "<|code_prefix|>", NULL};
    static const char *const fim_suf_texts[] = {"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>",
                                                "<\xef\xbd\x9c" "fim\xe2\x96\x81" "hole\xef\xbd\x9c>", "<SUF>",
                                                "\xe2\x96\x81<SUF>", "<|code_suffix|>", NULL};
    static const char *const fim_mid_texts[] = {"<|fim_middle|>", "<fim-middle>", "<fim_middle>",
                                                "<\xef\xbd\x9c" "fim\xe2\x96\x81" "end\xef\xbd\x9c>", "<MID>",
                                                "\xe2\x96\x81<MID>", "<|code_middle|>", NULL};
    static const char *const fim_pad_texts[] = {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", NULL};
    static const char *const fim_rep_texts[] = {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>",
                                                NULL};
    static const char *const fim_sep_texts[] = {"<|file_sep|>", NULL};
    static const char *const eog_texts[] = {"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>",
                                            "<end_of_turn>", "<|endoftext|>", "<|eom_id|>", "<EOT>", "_<EOT>",
                                            "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>",
                                            "<|tool_response>", NULL};
    int32_t n = v->n_tokens;
    v->bos = key_token_id(f, "tokenizer.ggml.bos_token_id", v->bos, n);
    v->eos = key_token_id(f, "tokenizer.ggml.eos_token_id", v->eos, n);
    v->eot = key_token_id(f, "tokenizer.ggml.eot_token_id", -1, n);
    v->eom = key_token_id(f, "tokenizer.ggml.eom_token_id", -1, n);
    v->unk = key_token_id(f, "tokenizer.ggml.unknown_token_id", v->unk, n);
    v->pad = key_token_id(f, "tokenizer.ggml.padding_token_id", v->pad, n);
    int32_t fim_pre = key_token_id(f, "tokenizer.ggml.fim_pre_token_id", -1, n);
    if (fim_pre < 0) fim_pre = key_token_id(f, "tokenizer.ggml.prefix_token_id", -1, n);
    int32_t fim_suf = key_token_id(f, "tokenizer.ggml.fim_suf_token_id", -1, n);
    if (fim_suf < 0) fim_suf = key_token_id(f, "tokenizer.ggml.suffix_token_id", -1, n);
    int32_t fim_mid = key_token_id(f, "tokenizer.ggml.fim_mid_token_id", -1, n);
    if (fim_mid < 0) fim_mid = key_token_id(f, "tokenizer.ggml.middle_token_id", -1, n);
    int32_t fim_pad = key_token_id(f, "tokenizer.ggml.fim_pad_token_id", -1, n);
    int32_t fim_rep = key_token_id(f, "tokenizer.ggml.fim_rep_token_id", -1, n);
    int32_t fim_sep = key_token_id(f, "tokenizer.ggml.fim_sep_token_id", -1, n);
    v->add_bos = gguf_get_bool(f, "tokenizer.ggml.add_bos_token", v->add_bos);
    v->add_eos = gguf_get_bool(f, "tokenizer.ggml.add_eos_token", v->add_eos);
    if (v->pre == PRETOK_GEMMA4) v->add_bos = true; /* as llama.cpp forces it: Gemma 4 files may say false */

    if (v->eot < 0) v->eot = detect_by_text(v, eot_texts);
    if (v->eom < 0) v->eom = detect_by_text(v, eom_texts);
    /* Detected only to make them control tokens (not split out of plain text). */
    if (fim_pre < 0) detect_by_text(v, fim_pre_texts);
    if (fim_suf < 0) detect_by_text(v, fim_suf_texts);
    if (fim_mid < 0) detect_by_text(v, fim_mid_texts);
    if (fim_pad < 0) fim_pad = detect_by_text(v, fim_pad_texts);
    if (fim_rep < 0) fim_rep = detect_by_text(v, fim_rep_texts);
    if (fim_sep < 0) fim_sep = detect_by_text(v, fim_sep_texts);

    eog_add(v, fim_pad);
    eog_add(v, fim_rep);
    eog_add(v, fim_sep);
    for (int i = 0; eog_texts[i]; i++) {
        int32_t id = str_map_get(&v->token_ids, eog_texts[i], strlen(eog_texts[i]));
        if (id < 0) continue;
        eog_add(v, id);
        v->attr[id] = TOK_ATTR_CONTROL;
    }
    /* gpt-oss: these always render, like user-defined tokens. */
    static const char *const harmony_texts[] = {"<|channel|>", "<|message|>", "<|start|>", "<|constrain|>", NULL};
    for (int i = 0; harmony_texts[i]; i++) {
        int32_t id = str_map_get(&v->token_ids, harmony_texts[i], strlen(harmony_texts[i]));
        if (id >= 0) v->attr[id] = TOK_ATTR_USER_DEFINED;
    }
    eog_add(v, v->eos);
    eog_add(v, v->eot);
    eog_add(v, v->eom);
    /* Gemma 4: with <|tool_response> in the vocabulary, </s> is ordinary text. */
    int32_t s_end = seer_vocab_find(v, "</s>");
    if (s_end >= 0 && seer_vocab_find(v, "<|tool_response>") >= 0) v->attr[s_end] = TOK_ATTR_NORMAL;
    /* o200k_harmony: with <|return|> and <|call|> ending turns, <|end|> does not. */
    int32_t end = seer_vocab_find(v, "<|end|>");
    if (seer_vocab_is_eog(v, seer_vocab_find(v, "<|return|>")) && seer_vocab_is_eog(v, seer_vocab_find(v, "<|call|>")) &&
        seer_vocab_is_eog(v, end)) {
        int k = 0;
        for (int i = 0; i < v->n_eog; i++)
            if (v->eog[i] != end) v->eog[k++] = v->eog[i];
        v->n_eog = k;
        v->attr[end] = TOK_ATTR_USER_DEFINED;
    }
}

typedef struct special_entry { uint32_t len; int32_t id; } special_entry;

static int cmp_special_longest_first(const void *a, const void *b) {
    const special_entry *x = a, *y = b;
    if (x->len != y->len) return x->len > y->len ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Tokens that special-token parsing looks for, longest text first. */
static int build_special_list(seer_vocab *v) {
    special_entry *e = malloc((size_t)v->n_tokens * sizeof *e + 1);
    v->specials = malloc((size_t)v->n_tokens * sizeof *v->specials + 1);
    if (!e || !v->specials) { free(e); return -1; }
    int n = 0;
    for (int32_t id = 0; id < v->n_tokens; id++)
        if (v->attr[id] & (TOK_ATTR_CONTROL | TOK_ATTR_USER_DEFINED | TOK_ATTR_UNKNOWN))
            e[n++] = (special_entry){v->text_len[id], id};
    qsort(e, (size_t)n, sizeof *e, cmp_special_longest_first);
    for (int i = 0; i < n; i++) v->specials[i] = e[i].id;
    v->n_specials = n;
    free(e);
    return 0;
}

/* Per-model token attributes llama.cpp sets by name: Phi-3 strips the
 * whitespace after its special tokens. */
static void set_attributes_by_model_name(seer_vocab *v) {
    if (!v->model_name) return;
    char lower[256];
    size_t i = 0;
    for (; v->model_name[i] && i + 1 < sizeof lower; i++) {
        char c = v->model_name[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    lower[i] = 0;
    if (!strstr(lower, "phi-3") && !strstr(lower, "phi3")) return;
    for (int k = 0; k < v->n_specials; k++) v->attr[v->specials[k]] |= TOK_ATTR_RSTRIP;
    int32_t id = seer_vocab_find(v, "</s>");
    if (id >= 0) v->attr[id] |= TOK_ATTR_RSTRIP;
    static const char *const keep[] = {"<unk>", "<s>", "<|endoftext|>"};
    for (int k = 0; k < 3; k++) {
        id = seer_vocab_find(v, keep[k]);
        if (id >= 0) v->attr[id] &= ~(uint32_t)TOK_ATTR_RSTRIP;
    }
}

static void set_byte_tokens(seer_vocab *v) {
    for (int b = 0; b < 256; b++) {
        char buf[8];
        int32_t id;
        if (v->kind == VOCAB_SPM || v->raw_utf8) {
            snprintf(buf, sizeof buf, "<0x%02X>", b);
            id = str_map_get(&v->token_ids, buf, 6);
            if (id < 0 && v->kind == VOCAB_SPM) { buf[0] = (char)b; id = str_map_get(&v->token_ids, buf, 1); }
        } else {
            int n = seer_utf8_encode(seer_byte_to_cp((uint8_t)b), buf);
            id = str_map_get(&v->token_ids, buf, (size_t)n);
        }
        v->byte_token[b] = id;
    }
}

static uint32_t attr_from_gguf_type(int64_t t) {
    switch (t) {
    case 1: return TOK_ATTR_NORMAL;
    case 2: return TOK_ATTR_UNKNOWN;
    case 3: return TOK_ATTR_CONTROL;
    case 4: return TOK_ATTR_USER_DEFINED;
    case 5: return TOK_ATTR_UNUSED;
    case 6: return TOK_ATTR_BYTE;
    default: return 0; /* undefined */
    }
}

static int load_merges(seer_vocab *v, const gguf_kv *merges, seer_error *err) {
    size_t total = 0;
    for (uint64_t i = 0; i < merges->n; i++) total += merges->arr_str_len[i] + 1;
    v->merge_keys = malloc(total + 1);
    if (!v->merge_keys || str_map_init(&v->merge_ranks, (uint32_t)merges->n) != 0) {
        seer_error_set(err, "out of memory loading %llu BPE merges", (unsigned long long)merges->n);
        return -1;
    }
    char *p = v->merge_keys;
    for (uint64_t i = 0; i < merges->n; i++) {
        const char *m = merges->arr_str[i];
        uint32_t len = merges->arr_str_len[i];
        /* "left right": split at the first space after the first byte. */
        const char *sp = len > 1 ? memchr(m + 1, ' ', len - 1) : NULL;
        if (!sp) continue;
        memcpy(p, m, len);
        p[sp - m] = '\0';
        str_map_put(&v->merge_ranks, p, len, (int32_t)i, false);
        p += len + 1;
    }
    return 0;
}

seer_vocab *seer_vocab_load(const gguf_file *f, seer_error *err) {
    const char *model = gguf_get_str(f, "tokenizer.ggml.model");
    if (!model) { seer_error_set(err, "no tokenizer in the file (tokenizer.ggml.model is missing)"); return NULL; }
    vocab_kind kind;
    const char *model_label;
    if (strcmp(model, "llama") == 0) kind = VOCAB_SPM, model_label = "llama";
    else if (strcmp(model, "gpt2") == 0) kind = VOCAB_BPE, model_label = "gpt2";
    else if (strcmp(model, "gemma4") == 0) kind = VOCAB_BPE, model_label = "gemma4";
    else {
        seer_error_set(err, "unsupported tokenizer model '%.64s' (supported: llama, gpt2, gemma4)", model);
        return NULL;
    }
    bool gemma4 = strcmp(model_label, "gemma4") == 0;

    const gguf_kv *tokens = find_array(f, "tokenizer.ggml.tokens", GGUF_TYPE_STRING);
    if (!tokens || tokens->n == 0 || tokens->n > INT32_MAX / 2) {
        seer_error_set(err, "tokenizer.ggml.tokens is missing, empty or not an array of strings");
        return NULL;
    }
    const gguf_kv *merges = NULL;
    if (kind == VOCAB_BPE && !(merges = find_array(f, "tokenizer.ggml.merges", GGUF_TYPE_STRING))) {
        seer_error_set(err, "BPE tokenizer without tokenizer.ggml.merges");
        return NULL;
    }

    seer_vocab *v = calloc(1, sizeof *v);
    if (!v) { seer_error_set(err, "out of memory"); return NULL; }
    v->kind = kind;
    v->model = model_label;
    v->n_tokens = (int32_t)tokens->n;
    /* The gemma4 model implies its pre-tokenizer, whatever the key says (as in llama.cpp). */
    v->pre_name = dup_str(gemma4 ? "gemma4" : gguf_get_str(f, "tokenizer.ggml.pre"));
    v->model_name = dup_str(gguf_get_str(f, "general.name"));
    v->chat_template = dup_str(gguf_get_str(f, "tokenizer.chat_template"));
    if (kind == VOCAB_SPM) {
        v->bos = 1; v->eos = 2; v->unk = 0; v->pad = -1;
        v->add_bos = true; v->add_space_prefix = true;
        v->pre = PRETOK_DEFAULT;
    } else {
        v->bos = 11; v->eos = 11; v->unk = -1; v->pad = -1;
        if (gemma4) v->bos = v->eos = -1; /* only what the file names */
        if (!pretok_from_name(v->pre_name, &v->pre, &v->ignore_merges, &v->add_bos, &v->bos)) {
            seer_error_set(err, "unsupported pre-tokenizer '%.64s' (tokenizer.ggml.pre): seer does not know how this "
                                "model splits text", v->pre_name);
            seer_vocab_free(v);
            return NULL;
        }
        v->raw_utf8 = v->pre == PRETOK_GEMMA4;
    }
    v->add_space_prefix = gguf_get_bool(f, "tokenizer.ggml.add_space_prefix", v->add_space_prefix);

    size_t n = (size_t)v->n_tokens;
    v->text = calloc(n, sizeof *v->text);
    v->text_len = calloc(n, sizeof *v->text_len);
    v->score = calloc(n, sizeof *v->score);
    v->attr = calloc(n, sizeof *v->attr);
    if (!v->text || !v->text_len || !v->score || !v->attr || str_map_init(&v->token_ids, (uint32_t)n) != 0) {
        seer_error_set(err, "out of memory loading %zu tokens", n);
        seer_vocab_free(v);
        return NULL;
    }
    const gguf_kv *scores = gguf_find_kv(f, "tokenizer.ggml.scores");
    const gguf_kv *types = gguf_find_kv(f, "tokenizer.ggml.token_type");
    bool have_scores = scores && scores->type == GGUF_TYPE_ARRAY && scores->n == n;
    bool have_types = types && types->type == GGUF_TYPE_ARRAY && types->n == n;
    size_t arena_size = 0;
    for (size_t i = 0; i < n; i++) arena_size += (tokens->arr_str_len[i] ? tokens->arr_str_len[i] : 32) + 1;
    v->text_arena = malloc(arena_size);
    if (!v->text_arena) { seer_error_set(err, "out of memory loading %zu tokens", n); seer_vocab_free(v); return NULL; }
    char *arena = v->text_arena;
    for (size_t i = 0; i < n; i++) {
        const char *t = tokens->arr_str[i];
        size_t len = tokens->arr_str_len[i];
        char empty_name[32];
        if (len == 0) { /* llama.cpp names empty tokens so they stay unique */
            snprintf(empty_name, sizeof empty_name, "[EMPTY_%zu]", i);
            t = empty_name;
            len = strlen(empty_name);
        }
        v->text[i] = arena;
        arena += len + 1;
        memcpy(v->text[i], t, len);
        v->text[i][len] = '\0';
        v->text_len[i] = (uint32_t)len;
        if (len > v->longest) v->longest = len;
        if (!have_scores) v->score[i] = 0.0f;
        else if (scores->arr_type == GGUF_TYPE_FLOAT32) memcpy(&v->score[i], (const char *)scores->arr + 4 * i, 4);
        else v->score[i] = (float)gguf_get_arr_float(f, "tokenizer.ggml.scores", i, 0.0);
        int64_t type = 1;
        if (have_types && types->arr_type == GGUF_TYPE_INT32) {
            int32_t t32;
            memcpy(&t32, (const char *)types->arr + 4 * i, 4);
            type = t32;
        } else if (have_types) {
            type = gguf_get_arr_int(f, "tokenizer.ggml.token_type", i, 1);
        }
        v->attr[i] = attr_from_gguf_type(type);
        str_map_put(&v->token_ids, v->text[i], len, (int32_t)i, true);
    }
    if (merges && load_merges(v, merges, err) != 0) { seer_vocab_free(v); return NULL; }

    set_special_tokens(v, f);
    set_byte_tokens(v);
    if (build_special_list(v) != 0) { seer_error_set(err, "out of memory"); seer_vocab_free(v); return NULL; }
    set_attributes_by_model_name(v);
    return v;
}

void seer_vocab_free(seer_vocab *v) {
    if (!v) return;
    free(v->text_arena);
    free(v->text); free(v->text_len); free(v->score); free(v->attr);
    str_map_free(&v->token_ids);
    str_map_free(&v->merge_ranks);
    free(v->merge_keys);
    free(v->eog); free(v->specials);
    free(v->chat_template); free(v->model_name); free(v->pre_name);
    free(v);
}

/* ---- accessors ---- */

int32_t seer_vocab_size(const seer_vocab *v) { return v ? v->n_tokens : -1; }
size_t seer_vocab_longest_token(const seer_vocab *v) { return v && v->longest > 1 ? v->longest : 1; }
bool seer_vocab_more_tokens_than(const seer_vocab *v, size_t bytes, int64_t n) {
    return n >= 0 && bytes / seer_vocab_longest_token(v) > (uint64_t)n;
}
int32_t seer_vocab_bos(const seer_vocab *v) { return v ? v->bos : -1; }
int32_t seer_vocab_eos(const seer_vocab *v) { return v ? v->eos : -1; }
bool seer_vocab_add_bos(const seer_vocab *v) { return v && v->add_bos && v->bos >= 0; }
bool seer_vocab_add_eos(const seer_vocab *v) { return v && v->add_eos && v->eos >= 0; }

bool seer_vocab_is_eog(const seer_vocab *v, int32_t id) {
    if (!v || id < 0) return false;
    for (int i = 0; i < v->n_eog; i++)
        if (v->eog[i] == id) return true;
    return false;
}

int seer_vocab_token_attr(const seer_vocab *v, int32_t id) {
    if (!v || id < 0 || id >= v->n_tokens) return -1;
    uint32_t a = v->attr[id];
    if (a & TOK_ATTR_CONTROL) return SEER_TOKEN_CONTROL;
    if (a & TOK_ATTR_USER_DEFINED) return SEER_TOKEN_USER_DEFINED;
    if (a & TOK_ATTR_UNKNOWN) return SEER_TOKEN_UNKNOWN;
    if (a & TOK_ATTR_UNUSED) return SEER_TOKEN_UNUSED;
    if (a & TOK_ATTR_BYTE) return SEER_TOKEN_BYTE;
    if (a & TOK_ATTR_NORMAL) return SEER_TOKEN_NORMAL;
    return 0;
}

const char *seer_vocab_token_text(const seer_vocab *v, int32_t id) {
    if (!v || id < 0 || id >= v->n_tokens) return NULL;
    return v->text[id];
}

int32_t seer_vocab_find(const seer_vocab *v, const char *text) {
    if (!v || !text) return -1;
    return str_map_get(&v->token_ids, text, strlen(text));
}

const char *seer_vocab_chat_template(const seer_vocab *v) { return v ? v->chat_template : NULL; }
const char *seer_vocab_model_name(const seer_vocab *v) { return v ? v->model : NULL; }
const char *seer_vocab_pre_name(const seer_vocab *v) { return v ? (v->pre_name ? v->pre_name : "default") : NULL; }
