// conformance-dump: writes the expected/ files of a conformance case (see
// ../shared/conformance/README.md) by running a model through llama.cpp's own
// libraries: libllama for the decoder, libmtmd for tokenization, image
// preprocessing and the vision encoder. seer's code is not involved: these
// files are what seer is checked against.
//
// Settings are fixed to what the case format promises: F32 KV cache (zeroed),
// flash attention off, no repacked weight buffers, 2 threads, the whole prompt
// in one batch (n_batch = n_ubatch = 2048), n_ctx 4096, the prompt used byte
// for byte with special-token parsing, greedy decoding for n_predict steps.
//
// Usage: conformance-dump --case DIR          (reads DIR/case.json, writes DIR/expected)
//        conformance-dump -m LLM [--mmproj MM] -p PROMPT_FILE [--image IMG]... -o OUT_DIR
//                         [-n N_PREDICT] [--keep-inputs all|none|0,2,...]
//        checks of the tool itself: --no-capture (encode without the pixel-capturing callback),
//        --embd-from DIR (decode the image embeddings stored in DIR instead of the encoder's)

#include "llama.h"
#include "mtmd.h"
#include "mtmd-helper.h"
#include "gguf.h"
#include "nlohmann/json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef LLAMA_CPP_COMMIT
#define LLAMA_CPP_COMMIT "unknown"
#endif

static const int    THREADS   = 2;
static const int    N_CTX     = 4096;
static const int    N_BATCH   = 2048;

struct options {
    std::string llm, mmproj, prompt_file, out_dir;
    std::vector<std::string> images;
    int n_predict = 16;
    bool keep_all_inputs = true;
    std::set<int> keep_inputs;   // used when keep_all_inputs is false
    bool quiet = true;
    bool capture = true;         // --no-capture: encoder graph without the eval callback (to check it changes nothing)
    std::string embd_from;       // --embd-from DIR: decode DIR/image_embd_<k>.f32 instead of the encoder's output
};

[[noreturn]] static void die(const std::string & msg) {
    fprintf(stderr, "conformance-dump: %s\n", msg.c_str());
    exit(1);
}

static std::string read_file(const std::string & path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) die("cannot read " + path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

static void write_file(const std::string & path, const void * data, size_t n) {
    FILE * f = fopen(path.c_str(), "wb");
    if (!f) die("cannot write " + path);
    if (n && fwrite(data, 1, n, f) != n) die("short write to " + path);
    fclose(f);
}

static void write_text(const std::string & path, const std::string & s) { write_file(path, s.data(), s.size()); }

// ---- JSON text, written by hand so the files keep the layout of the existing cases ----

static bool utf8_next(const std::string & s, size_t i, size_t * len) {
    const unsigned char c = s[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; k++) if ((s[i + k] & 0xC0) != 0x80) return false;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; k < n; k++) cp = (cp << 6) | (s[i + k] & 0x3F);
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    *len = n;
    return true;
}

// bytes that are not valid UTF-8 become U+FFFD, one per byte
static std::string utf8_sanitize(const std::string & s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        size_t n;
        if (utf8_next(s, i, &n)) { out.append(s, i, n); i += n; }
        else { out += "\xEF\xBF\xBD"; i++; }
    }
    return out;
}

static std::string json_str(const std::string & raw) {
    const std::string s = utf8_sanitize(raw);
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); out += b; }
        else out += (char) c;
    }
    return out + "\"";
}

static std::string json_float(double v) {
    char b[32];
    snprintf(b, sizeof b, "%.9g", v);
    return b;
}

template <typename T, typename F> static std::string json_list(const std::vector<T> & v, F fmt) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); i++) out += (i ? "," : "") + fmt(v[i]);
    return out + "]";
}

static std::string hex(const std::string & s) {
    std::string out;
    char b[3];
    for (unsigned char c : s) { snprintf(b, sizeof b, "%02x", c); out += b; }
    return out;
}

// ---- capturing the pixels the encoder was fed ----
// libmtmd does not expose its preprocessed image, so the encoder graph's
// eval callback reads the "inp_raw" input tensor the first time a node uses it.

struct pixel_capture {
    bool captured = false;
    std::vector<float> data;
    std::vector<int64_t> shape;  // batch, channels, height, width
};

static const ggml_tensor * raw_input_of(const ggml_tensor * t) {
    for (int i = 0; i < GGML_MAX_SRC; i++) {
        const ggml_tensor * s = t->src[i];
        if (s && s->view_src) s = s->view_src;   // e.g. one frame of a two-frame Qwen input
        if (s && strcmp(s->name, "inp_raw") == 0) return s;
    }
    return nullptr;
}

// The pixels are read when the scheduler asks about their first user, before
// it runs: an operation the allocator runs in place (gemma4v's 2x - 1 scale)
// would have overwritten them by the time it answers.
static bool capture_pixels(ggml_tensor * t, bool ask, void * user_data) {
    auto * cap = (pixel_capture *) user_data;
    const ggml_tensor * raw = raw_input_of(t);
    if (!ask) return true;
    if (raw && !cap->captured) {
        if (raw->type != GGML_TYPE_F32) die("encoder input is not F32");
        cap->data.resize(ggml_nelements(raw));
        ggml_backend_tensor_get(raw, cap->data.data(), 0, ggml_nbytes(raw));
        cap->shape = {raw->ne[3], raw->ne[2], raw->ne[1], raw->ne[0]};
        cap->captured = true;
    }
    return false; // nothing to observe after the run
}

// ---- arguments ----

static void parse_keep(options & o, const std::string & v) {
    o.keep_inputs.clear();
    if (v == "all") { o.keep_all_inputs = true; return; }
    o.keep_all_inputs = false;
    if (v == "none") return;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) o.keep_inputs.insert(atoi(item.c_str()));
}

static void load_case(options & o, const std::string & dir) {
    nlohmann::json c;
    try { c = nlohmann::json::parse(read_file(dir + "/case.json")); }
    catch (const std::exception & e) { die(dir + "/case.json: " + e.what()); }
    o.llm = dir + "/" + c.at("llm").get<std::string>();
    if (c.contains("mmproj") && !c["mmproj"].is_null()) o.mmproj = dir + "/" + c["mmproj"].get<std::string>();
    o.prompt_file = dir + "/" + c.at("prompt_file").get<std::string>();
    for (auto & im : c.value("images", nlohmann::json::array())) o.images.push_back(dir + "/" + im.get<std::string>());
    o.n_predict = c.value("n_predict", 16);
    if (c.contains("image_inputs_kept")) {
        o.keep_all_inputs = false;
        for (auto & k : c["image_inputs_kept"]) o.keep_inputs.insert(k.get<int>());
    }
    o.out_dir = dir + "/expected";
}

static options parse_args(int argc, char ** argv) {
    options o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { if (i + 1 >= argc) die("missing value after " + a); return argv[++i]; };
        if (a == "--case") load_case(o, next());
        else if (a == "-m" || a == "--model") o.llm = next();
        else if (a == "--mmproj") o.mmproj = next();
        else if (a == "-p" || a == "--prompt-file") o.prompt_file = next();
        else if (a == "--image") o.images.push_back(next());
        else if (a == "-o" || a == "--out") o.out_dir = next();
        else if (a == "-n" || a == "--n-predict") o.n_predict = atoi(next().c_str());
        else if (a == "--keep-inputs") parse_keep(o, next());
        else if (a == "-v" || a == "--verbose") o.quiet = false;
        else if (a == "--no-capture") o.capture = false;
        else if (a == "--embd-from") o.embd_from = next();
        else die("unknown argument " + a + " (see the comment at the top of dump.cpp)");
    }
    if (o.llm.empty() || o.prompt_file.empty() || o.out_dir.empty())
        die("need --case DIR, or -m LLM -p PROMPT_FILE -o OUT_DIR");
    return o;
}

static void quiet_log(ggml_log_level level, const char * text, void *) {
    if (level == GGML_LOG_LEVEL_ERROR) fputs(text, stderr);   // its warnings (e.g. Qwen-VL token limits) are noise here
}

static std::string projector_type(const std::string & mmproj) {
    gguf_init_params p = {true, nullptr};
    gguf_context * g = gguf_init_from_file(mmproj.c_str(), p);
    if (!g) die("cannot read " + mmproj);
    int64_t k = gguf_find_key(g, "clip.projector_type");
    if (k < 0) k = gguf_find_key(g, "clip.vision.projector_type"); // files with an audio tower too (Gemma 4)
    std::string t = k >= 0 ? gguf_get_val_str(g, k) : "";
    gguf_free(g);
    return t;
}

// ---- the run ----

struct media_record {
    std::string json;        // the chunk's entry in tokens.json
};

static int argmax_with_margin(const float * logits, int n, float * margin) {
    int best = 0;
    for (int i = 1; i < n; i++) if (logits[i] > logits[best]) best = i;   // lowest id wins ties
    float second = -INFINITY;
    for (int i = 0; i < n; i++) if (i != best && logits[i] > second) second = logits[i];
    *margin = logits[best] - second;
    return best;
}

static std::string piece_of(const llama_vocab * vocab, llama_token t) {
    std::vector<char> buf(256);
    int n = llama_token_to_piece(vocab, t, buf.data(), (int) buf.size(), 0, true);
    if (n < 0) { buf.resize(-n); n = llama_token_to_piece(vocab, t, buf.data(), (int) buf.size(), 0, true); }
    return std::string(buf.data(), std::max(n, 0));
}

static std::string detokenize(const llama_vocab * vocab, const std::vector<llama_token> & toks) {
    std::vector<char> buf(4096);
    int n = llama_detokenize(vocab, toks.data(), (int) toks.size(), buf.data(), (int) buf.size(), false, true);
    if (n < 0) { buf.resize(-n); n = llama_detokenize(vocab, toks.data(), (int) toks.size(), buf.data(), (int) buf.size(), false, true); }
    return std::string(buf.data(), std::max(n, 0));
}

static void decode_text(llama_context * lctx, const llama_token * toks, size_t n, llama_pos & n_past, bool logits_last) {
    llama_batch b = llama_batch_init((int) n, 0, 1);
    for (size_t i = 0; i < n; i++) {
        b.token[i] = toks[i];
        b.pos[i] = n_past++;
        b.n_seq_id[i] = 1;
        b.seq_id[i][0] = 0;
        b.logits[i] = logits_last && i + 1 == n;
    }
    b.n_tokens = (int) n;
    if (llama_decode(lctx, b) != 0) die("llama_decode failed on a text chunk");
    llama_batch_free(b);
}

int main(int argc, char ** argv) {
    options o = parse_args(argc, argv);
    if (o.quiet) { llama_log_set(quiet_log, nullptr); mtmd_helper_log_set(quiet_log, nullptr); }
    llama_backend_init();

    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    mp.use_extra_bufts = false;   // plain ggml CPU kernels, no repacked weights
    llama_model * model = llama_model_load_from_file(o.llm.c_str(), mp);
    if (!model) die("llama.cpp could not load " + o.llm);
    const llama_vocab * vocab = llama_model_get_vocab(model);

    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = N_CTX;
    cp.n_batch = N_BATCH;
    cp.n_ubatch = N_BATCH;
    cp.n_threads = THREADS;
    cp.n_threads_batch = THREADS;
    cp.type_k = GGML_TYPE_F32;
    cp.type_v = GGML_TYPE_F32;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
    cp.no_perf = true;
    llama_context * lctx = llama_init_from_model(model, cp);
    if (!lctx) die("llama.cpp could not create a context for " + o.llm);
    llama_memory_clear(llama_get_memory(lctx), true);   // zeroed KV cache

    pixel_capture cap;
    mtmd_context * mctx = nullptr;
    if (!o.mmproj.empty()) {
        mtmd_context_params mcp = mtmd_context_params_default();
        mcp.use_gpu = false;
        mcp.print_timings = false;
        mcp.n_threads = THREADS;
        mcp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
        mcp.warmup = false;
        if (o.capture) {
            mcp.cb_eval = capture_pixels;
            mcp.cb_eval_user_data = &cap;
        }
        mctx = mtmd_init_from_file(o.mmproj.c_str(), model, mcp);
        if (!mctx) die("libmtmd could not load " + o.mmproj);
    } else if (!o.images.empty()) {
        die("images given but no --mmproj");
    }

    const std::string prompt = read_file(o.prompt_file);
    std::error_code ec;
    std::filesystem::create_directories(o.out_dir, ec);
    const int n_vocab = llama_vocab_n_tokens(vocab);
    const int n_embd = llama_model_n_embd(model);
    const int n_embd_inp = llama_model_n_embd_inp(model);
    const bool mrope = mctx && mtmd_decode_use_mrope(mctx);

    std::string tokens_json = "{\"chunks\":[\n";
    size_t n_prompt_tokens = 0;
    llama_pos n_past = 0;
    int n_media = 0;

    if (!mctx) {
        std::vector<llama_token> toks(prompt.size() + 16);
        int n = llama_tokenize(vocab, prompt.data(), (int) prompt.size(), toks.data(), (int) toks.size(), true, true);
        if (n < 0) die("tokenization failed");
        toks.resize(n);
        tokens_json += "  {\"type\":\"text\",\"pos\":0,\"tokens\":" + json_list(toks, [](llama_token t) { return std::to_string(t); }) + "}\n";
        decode_text(lctx, toks.data(), toks.size(), n_past, true);
        n_prompt_tokens = toks.size();
    } else {
        std::vector<mtmd_helper_bitmap_wrapper> bitmaps;
        std::vector<const mtmd_bitmap *> bitmap_ptrs;
        for (auto & path : o.images) {
            auto w = mtmd_helper_bitmap_init_from_file(mctx, path.c_str(), false, mtmd_helper_init_opt_default());
            if (!w.bitmap) die("cannot load image " + path);
            bitmaps.push_back(w);
            bitmap_ptrs.push_back(w.bitmap);
        }
        mtmd_input_text text = {prompt.c_str(), prompt.size(), true, true};
        mtmd_input_chunks * chunks = mtmd_input_chunks_init();
        int32_t r = mtmd_tokenize(mctx, chunks, &text, bitmap_ptrs.data(), bitmap_ptrs.size());
        if (r != 0) die("mtmd_tokenize failed (" + std::to_string(r) + "): the number of <__media__> markers must equal the number of images");

        const size_t n_chunks = mtmd_input_chunks_size(chunks);
        for (size_t ci = 0; ci < n_chunks; ci++) {
            const mtmd_input_chunk * chunk = mtmd_input_chunks_get(chunks, ci);
            const bool last = ci + 1 == n_chunks;
            const llama_pos pos0 = n_past;
            std::string entry;
            if (mtmd_input_chunk_get_type(chunk) == MTMD_INPUT_CHUNK_TYPE_TEXT) {
                size_t n;
                const llama_token * t = mtmd_input_chunk_get_tokens_text(chunk, &n);
                std::vector<llama_token> toks(t, t + n);
                entry = "  {\"type\":\"text\",\"pos\":" + std::to_string(pos0) + ",\"tokens\":" +
                        json_list(toks, [](llama_token x) { return std::to_string(x); }) + "}";
                decode_text(lctx, t, n, n_past, last);
                n_prompt_tokens += n;
            } else if (mtmd_input_chunk_get_type(chunk) == MTMD_INPUT_CHUNK_TYPE_IMAGE) {
                if (last) die("the prompt ends with an image: the prefill logits would not exist");
                const int k = n_media++;
                const size_t n_tok = mtmd_input_chunk_get_n_tokens(chunk);
                const mtmd_image_tokens * it = mtmd_input_chunk_get_tokens_image(chunk);
                cap.captured = false;
                if (mtmd_encode_chunk(mctx, chunk) != 0) die("mtmd_encode_chunk failed on media chunk " + std::to_string(k));
                if (o.capture && !cap.captured) die("the encoder graph has no inp_raw input: cannot record the pixels");
                std::vector<float> embd(mtmd_get_output_embd(mctx), mtmd_get_output_embd(mctx) + n_tok * n_embd_inp);
                if (!o.embd_from.empty()) {
                    const std::string f = read_file(o.embd_from + "/image_embd_" + std::to_string(k) + ".f32");
                    if (f.size() != embd.size() * sizeof(float)) die("--embd-from: size mismatch for media chunk " + std::to_string(k));
                    memcpy(embd.data(), f.data(), f.size());
                }
                const std::string embd_file = "image_embd_" + std::to_string(k) + ".f32";
                const std::string input_file = "image_input_" + std::to_string(k) + ".f32";
                write_file(o.out_dir + "/" + embd_file, embd.data(), embd.size() * sizeof(float));
                if (o.capture && (o.keep_all_inputs || o.keep_inputs.count(k)))
                    write_file(o.out_dir + "/" + input_file, cap.data.data(), cap.data.size() * sizeof(float));
                else
                    remove((o.out_dir + "/" + input_file).c_str());

                llama_pos new_past = n_past;
                if (mtmd_helper_decode_image_chunk(mctx, lctx, chunk, embd.data(), n_past, 0, N_BATCH, &new_past, nullptr, nullptr) != 0)
                    die("decoding media chunk " + std::to_string(k) + " failed");
                n_past = new_past;
                n_prompt_tokens += n_tok;

                const char * id = mtmd_input_chunk_get_id(chunk);
                std::string shape = "[" + json_list(cap.shape, [](int64_t v) { return std::to_string(v); }) + "]";
                entry = "  {\"type\":\"image\",\"index\":" + std::to_string(k) + ",\"pos\":" + std::to_string(pos0) +
                        ",\"n_tokens\":" + std::to_string(n_tok) + ",\"n_pos\":" + std::to_string(mtmd_input_chunk_get_n_pos(chunk)) +
                        ",\"n_embd\":" + std::to_string(n_embd_inp) + ",\"id\":" + json_str(id ? id : "") +
                        ",\"nx\":" + std::to_string(mtmd_image_tokens_get_nx(it)) + ",\"ny\":" + std::to_string(mtmd_image_tokens_get_ny(it));
                if (mrope) {
                    // HunyuanVL's fourth section (the image's place among the prompt's images) as a fourth
                    // entry; the other M-RoPE layouts leave it 0 and keep three
                    const bool with_z = projector_type(o.mmproj) == "hunyuanvl";
                    std::vector<std::string> dp;
                    for (size_t i = 0; i < n_tok; i++) {
                        mtmd_decoder_pos p = mtmd_image_tokens_get_decoder_pos(it, 0, i);
                        dp.push_back("[" + std::to_string(p.t) + "," + std::to_string(p.x) + "," + std::to_string(p.y) +
                                     (with_z ? "," + std::to_string(p.z) : "") + "]");
                    }
                    entry += ",\"decoder_pos\":" + json_list(dp, [](const std::string & s) { return s; });
                }
                entry += ",\"embd_file\":" + json_str(embd_file) + ",\"input_file\":" + json_str(input_file) +
                         ",\"input_shapes\":" + shape + "}";
            } else {
                die("audio chunks are not supported");
            }
            tokens_json += entry + (last ? "\n" : ",\n");
        }
        mtmd_input_chunks_free(chunks);
        for (auto & w : bitmaps) mtmd_bitmap_free(w.bitmap);
    }
    tokens_json += "],\n\"n_tokens\":" + std::to_string(n_prompt_tokens) + ",\n\"n_pos\":" + std::to_string(n_past) + "\n}\n";
    write_text(o.out_dir + "/tokens.json", tokens_json);
    const llama_pos n_prompt_pos = n_past;

    // prefill logits, then greedy decoding one token at a time
    const float * logits = llama_get_logits_ith(lctx, -1);
    if (!logits) die("no logits after the prompt");
    write_file(o.out_dir + "/logits_prefill.f32", logits, n_vocab * sizeof(float));

    std::vector<llama_token> gen;
    std::vector<float> margins;
    std::vector<std::string> pieces;
    for (int step = 0; step < o.n_predict; step++) {
        float m;
        llama_token t = argmax_with_margin(logits, n_vocab, &m);
        gen.push_back(t);
        margins.push_back(m);
        if (llama_vocab_is_eog(vocab, t))   // engines may stop there: cases should not contain one
            fprintf(stderr, "conformance-dump: warning: greedy step %d is an end-of-generation token (%d)\n", step, t);
        pieces.push_back(piece_of(vocab, t));
        if (step + 1 == o.n_predict) break;
        decode_text(lctx, &t, 1, n_past, true);
        logits = llama_get_logits_ith(lctx, -1);
    }
    const std::string text = detokenize(vocab, gen);
    std::string greedy = "{\n";
    greedy += "\"tokens\":" + json_list(gen, [](llama_token t) { return std::to_string(t); }) + ",\n";
    greedy += "\"margin\":" + json_list(margins, [](float v) { return json_float(v); }) + ",\n";
    greedy += "\"pieces\":" + json_list(pieces, [](const std::string & s) { return json_str(s); }) + ",\n";
    greedy += "\"text\":" + json_str(text) + ",\n";
    greedy += "\"text_hex\":\"" + hex(text) + "\"\n}\n";
    write_text(o.out_dir + "/greedy.json", greedy);

    std::string kept = "all";
    if (!o.keep_all_inputs) {
        std::vector<int> v(o.keep_inputs.begin(), o.keep_inputs.end());
        kept = json_list(v, [](int x) { return std::to_string(x); });
    }
    std::string meta = "{\n";
    auto kv = [&](const std::string & k, const std::string & v) { meta += json_str(k) + ":" + v + ",\n"; };
    kv("source", json_str("llama.cpp (libllama + tools/mtmd), tools/conformance-ref/dump.cpp"));
    kv("llama_cpp_commit", json_str(LLAMA_CPP_COMMIT));
    kv("backend", json_str("CPU"));
    kv("build", json_str("CPU backend, GGML_NATIVE=OFF, AVX AVX2 FMA F16C BMI2 (no AVX512), GGML_CPU_REPACK=OFF, llamafile sgemm on, no OpenMP"));
    kv("kv_cache_zeroed", "true");
    if (mctx) kv("projector_type", json_str(projector_type(o.mmproj)));
    kv("n_vocab", std::to_string(n_vocab));
    kv("n_embd", std::to_string(n_embd));
    kv("n_embd_inp", std::to_string(n_embd_inp));
    kv("n_ctx", std::to_string(N_CTX));
    kv("n_batch", std::to_string(N_BATCH));
    kv("n_ubatch", std::to_string(N_BATCH));
    kv("threads", std::to_string(THREADS));
    kv("kv_cache_type", json_str("f32"));
    kv("flash_attn", "false");
    kv("extra_buffer_types", "false");
    kv("swa_full", cp.swa_full ? "true" : "false");
    kv("add_special", "true");
    kv("parse_special", "true");
    kv("media_marker", json_str(mtmd_default_marker()));
    kv("mrope", mrope ? "true" : "false");
    kv("n_prompt_tokens", std::to_string(n_prompt_tokens));
    kv("n_prompt_pos", std::to_string(n_prompt_pos));
    kv("n_predict", std::to_string(o.n_predict));
    kv("n_media", std::to_string(n_media));
    kv("image_inputs_kept", kept == "all" ? json_str("all") : kept);
    kv("vocab_bos", std::to_string(llama_vocab_bos(vocab)));
    kv("vocab_eos", std::to_string(llama_vocab_eos(vocab)));
    meta += json_str("system_info") + ":" + json_str(llama_print_system_info()) + "\n}\n";
    write_text(o.out_dir + "/meta.json", meta);

    if (mctx) mtmd_free(mctx);
    llama_free(lctx);
    llama_model_free(model);
    llama_backend_free();
    fprintf(stderr, "conformance-dump: wrote %s (%zu prompt tokens, %d positions, %d media chunks)\n",
            o.out_dir.c_str(), n_prompt_tokens, n_prompt_pos, n_media);
    return 0;
}
