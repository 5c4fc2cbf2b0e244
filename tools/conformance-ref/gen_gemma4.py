#!/usr/bin/env python3
"""Random-weight Gemma 4 GGUF files in the layout llama.cpp's converter writes.

LLM (`general.architecture` = gemma4) as conversion/gemma.py Gemma4Model
writes it from a Gemma4ForConditionalGeneration checkpoint. Only the sizes are
small; keys, tensor names, shapes and types are the converter's:
  - norm weights stored as they are (no +1: Gemma4Model.norm_shift is 0);
  - key_length / value_length = the full layers' head size (global_head_dim),
    key_length_swa / value_length_swa = the sliding layers' (head_dim);
  - head_count_kv an array (sliding layers num_key_value_heads, full layers
    num_global_key_value_heads); sliding_window_pattern one bool per layer;
  - rope.dimension_count = the full head size ("proportional" RoPE), and a
    rope_freqs tensor [1]*r + [1e30]*(d/2 - r), r = d*partial_rotary_factor/2,
    used by the full layers only; rope.dimension_count_swa = head_dim;
  - attention_k_eq_v: the full layers have no attn_v (V is K's projection);
  - blk.N.layer_output_scale.weight [1] (HF layer_scalar);
  - E-shape: per_layer_token_embd, per_layer_model_proj, per_layer_proj_norm,
    blk.N.inp_gate / proj / post_norm, embedding_length_per_layer_input,
    shared_kv_layers and a per-layer feed_forward_length (double-wide MLP on
    the KV-shared layers);
  - MoE shape: the dense MLP beside the experts (ffn_* + post_ffw_norm_1),
    pre_ffw_norm_2 / post_ffw_norm_2, ffn_gate_inp.weight and .scale (router),
    ffn_gate_up_exps (HF's fused experts.gate_up_proj), ffn_down_exps and
    ffn_down_exps.scale (router.per_expert_scale);
  - no output.weight: the head is tied to token_embd.
Vocabulary: until seer reads the `gemma4` tokenizer model, the SentencePiece
style vocabulary of gen_gemma3.py (`llama` model), so that the decoder is what
these cases test.

Usage: gen_gemma4.py --llama-cpp DIR --preset 31b|e|moe --out DIR
Writes DIR/model.gguf (F32; quantize it with llama-quantize where a case wants).
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_gemma3  # noqa: E402

# s = sliding layer, f = full layer (HF layer_types; the last must be full).
PRESETS = {
    # 31B shape: k_eq_v on full layers, full heads twice as wide with fewer KV
    # heads, a window (12) shorter than the prompt.
    "31b": dict(seed=41, embd_std=0.05, out_norm=6.0, n_embd=64, layers="sssfssf", n_head=4,
                n_head_kv=2, n_head_kv_full=1, head_dim=16, head_dim_full=32, n_ff=128,
                partial_rotary_full=0.25, sliding_window=12, softcap=30.0, k_eq_v=True,
                ple=0, shared_kv=0, double_wide=False, n_expert=0, vocab_pad_to=768),
    # E2B/E4B shape: per-layer embeddings, the last 3 layers reuse the cache
    # of layers 3 (sliding) and 4 (full), double-wide MLP there.
    "e": dict(seed=43, embd_std=0.0125, out_norm=15.0, n_embd=256, layers="ssssfssf", n_head=4,
              n_head_kv=1, n_head_kv_full=1, head_dim=64, head_dim_full=128, n_ff=256,
              partial_rotary_full=0.25, sliding_window=12, softcap=30.0, k_eq_v=False,
              tame_scores=True, ple=32, ple_std=0.2, shared_kv=3, double_wide=True, n_expert=0, vocab_pad_to=768),
    # 26B-A4B shape: every layer a dense MLP beside 8 experts, 2 used.
    "moe": dict(seed=49, embd_std=0.05, out_norm=6.0, n_embd=64, layers="sssfsf", n_head=4,
                n_head_kv=2, n_head_kv_full=1, head_dim=16, head_dim_full=32, n_ff=96,
                partial_rotary_full=0.25, sliding_window=12, softcap=30.0, k_eq_v=True, tame_scores=True,
                ple=0, shared_kv=0, double_wide=False, n_expert=8, n_expert_used=2, n_ff_exp=48,
                vocab_pad_to=768),
}


# Gemma 4's turn, thought-channel and image markers, in place of the last
# [PAD] rows of gen_gemma3's vocabulary (control tokens: one id each).
SPECIALS = ["<|turn>", "<turn|>", "<|channel>", "<channel|>", "<|think|>", "<|image>", "<image|>"]

# A stand-in chat template (ours, not the checkpoint's): what seer needs to
# pick its Gemma 4 rendering is the <|turn> marker; the cases' prompt.txt is
# used as it is and never goes through a template.
CHAT_TEMPLATE = (
    "{{ bos_token }}{% for m in messages %}<|turn>{{ 'model' if m['role'] == 'assistant' else m['role'] }}\n"
    "{{ m['content'] }}<turn|>\n{% endfor %}{% if add_generation_prompt %}<|turn>model\n{% endif %}"
)


def build_vocab(tt, pad_to):
    """gen_gemma3's vocabulary with SPECIALS as its last ids."""
    toks, scores, types = gen_gemma3.build_vocab(tt, pad_to)
    for i, t in enumerate(SPECIALS):
        k = pad_to - len(SPECIALS) + i
        toks[k], scores[k], types[k] = t.encode("utf-8"), -1000.0, tt.CONTROL
    return toks, scores, types


def build_vocab_gemma4(tt, pad_to):
    """A vocabulary for llama.cpp's `gemma4` tokenizer model: BPE over raw
    UTF-8 text with spaces written as U+2581, <0xXX> tokens for bytes no
    piece covers, merges learned here from refgen_common.CORPUS. Ids: <pad>
    <eos> <bos> <unk> <mask>, SPECIALS (CONTROL), the 256 byte tokens, the
    corpus's characters, the learned pieces, [PAD] filler (UNUSED)."""
    toks, scores, types = [], [], []

    def add(text, score, typ):
        toks.append(text)
        scores.append(float(score))
        types.append(typ)

    for t in ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"] + SPECIALS:
        add(t, 0.0, tt.CONTROL)
    for b in range(256):
        add(f"<0x{b:02X}>", 0.0, tt.BYTE)
    counts = rc.word_counts(rc.CORPUS, gen_gemma3.SPIECE_SPACE, list)
    seen = set(toks)
    for ch in sorted({c for w in counts for c in w} | {"\n", "\n\n"}):
        if ch not in seen:
            seen.add(ch)
            add(ch, 0.0, tt.NORMAL)
    merges = []
    for a_, b_ in rc.learn_merges(counts, 380):
        if a_ + b_ not in seen:
            seen.add(a_ + b_)
            add(a_ + b_, 0.0, tt.NORMAL)
            merges.append(f"{a_} {b_}")
    if len(toks) > pad_to:
        sys.exit(f"vocabulary has {len(toks)} tokens, more than {pad_to}")
    while len(toks) < pad_to:
        add(f"[PAD{len(toks)}]", 0.0, tt.UNUSED)
    return [t.encode("utf-8") for t in toks], scores, types, merges


def is_swa(p):
    return [c == "s" for c in p["layers"]]


def layer_ff(p):
    n = len(p["layers"])
    first_shared = n - p["shared_kv"]
    return [p["n_ff"] * (2 if p["double_wide"] and il >= first_shared else 1) for il in range(n)]


def qk_gain(p, hd):
    """The q/k norm weights' size: 1 (scores of unit-RMS heads spread as
    sqrt(head size), a peaked softmax), or hd^-1/4 with tame_scores (scores
    spread about 1: the quantized cases then move with Q8 rounding the way
    trained models do, not chaotically)."""
    return hd ** -0.25 if p.get("tame_scores") else 1.0


def llm_tensors(p, n_vocab, W):
    e, n = p["n_embd"], len(p["layers"])
    swa, ffs = is_swa(p), layer_ff(p)
    out = [("token_embd.weight", W.normal((n_vocab, e), p["embd_std"]))]
    hd_full = p["head_dim_full"]
    r = int(hd_full * p["partial_rotary_full"] / 2)
    out.append(("rope_freqs.weight", np.array([1.0] * r + [1e30] * (hd_full // 2 - r), dtype=np.float32)))
    P = p["ple"]
    if P:
        out += [
            ("per_layer_token_embd.weight", W.normal((n_vocab, P * n), p["ple_std"])),
            ("per_layer_model_proj.weight", W.linear(P * n, e)),
            ("per_layer_proj_norm.weight", W.around_one(P)),
        ]
    for i in range(n):
        b = f"blk.{i}."
        hd = p["head_dim"] if swa[i] else hd_full
        kv = p["n_head_kv"] if swa[i] else p["n_head_kv_full"]
        out += [(b + "attn_norm.weight", W.around_one(e))]
        att = rc.attention_tensors(W, b, e, p["n_head"], kv, hd)
        if p["k_eq_v"] and not swa[i]:
            att = [t for t in att if not t[0].endswith("attn_v.weight")]
        out += att
        out += [
            (b + "attn_q_norm.weight", W.around_one(hd) * qk_gain(p, hd)),
            (b + "attn_k_norm.weight", W.around_one(hd) * qk_gain(p, hd)),
            (b + "post_attention_norm.weight", W.around_one(e)),
            (b + "ffn_norm.weight", W.around_one(e)),
        ]
        out += rc.glu_ffn_tensors(W, b, e, ffs[i])
        out += [(b + "post_ffw_norm.weight", W.around_one(e))]
        if p["n_expert"]:
            X, F = p["n_expert"], p["n_ff_exp"]
            out += [
                (b + "post_ffw_norm_1.weight", W.around_one(e)),
                (b + "pre_ffw_norm_2.weight", W.around_one(e)),
                (b + "post_ffw_norm_2.weight", W.around_one(e)),
                (b + "ffn_gate_inp.weight", W.linear(X, e, 4.0)),
                (b + "ffn_gate_inp.scale", W.around_one(e, 0.3)),
                # HF's experts.gate_up_proj, fused as the converter maps it: each expert's gate rows, then its up rows
                (b + "ffn_gate_up_exps.weight", np.concatenate([W.normal((X, F, e), 1.0 / np.sqrt(e)),
                                                                W.normal((X, F, e), 1.0 / np.sqrt(e))], axis=1)),
                (b + "ffn_down_exps.weight", W.normal((X, e, F), 1.0 / np.sqrt(F))),
                (b + "ffn_down_exps.scale", W.around_one(X, 0.3)),
            ]
        if P:
            out += [
                (b + "inp_gate.weight", W.linear(P, e)),
                (b + "proj.weight", W.linear(e, P)),
                (b + "post_norm.weight", W.around_one(e)),
            ]
        out += [(b + "layer_output_scale.weight", np.array([0.6 + 0.8 * W.rng.random()], dtype=np.float32))]
    out.append(("output_norm.weight", W.around_one(e) * p["out_norm"]))
    return out


def llm_kv(gguf, p, vocab):
    tokens, scores, types = vocab[:3]
    n = len(p["layers"])
    swa = is_swa(p)
    kv = rc.text_model_kv(gguf, "Gemma 4 (random weights, tiny)", n, 131072, p["n_embd"], p["n_ff"],
                          p["n_head"], p["n_head_kv"]) + [
        ("add_rope_freq_base", 1000000.0),
        ("add_rope_freq_base_swa", 10000.0),
        ("add_layer_norm_rms_eps", 1e-6),
        ("add_final_logit_softcapping", p["softcap"]),
        ("add_sliding_window", p["sliding_window"]),
        ("add_shared_kv_layers", p["shared_kv"]),
        ("add_embedding_length_per_layer_input", p["ple"]),
        ("add_sliding_window_pattern", swa),
        ("add_key_length", p["head_dim_full"]),
        ("add_value_length", p["head_dim_full"]),
        ("add_key_length_swa", p["head_dim"]),
        ("add_value_length_swa", p["head_dim"]),
        ("add_head_count_kv", [p["n_head_kv"] if s else p["n_head_kv_full"] for s in swa]),
        ("add_rope_dimension_count", p["head_dim_full"]),
        ("add_rope_dimension_count_swa", p["head_dim"]),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ]
    if p["double_wide"]:
        kv.append(("add_feed_forward_length", layer_ff(p)))
    if p["n_expert"]:
        kv += [
            ("add_expert_count", p["n_expert"]),
            ("add_expert_used_count", p["n_expert_used"]),
            ("add_expert_feed_forward_length", p["n_ff_exp"]),
        ]
    if len(vocab) == 4:  # the gemma4 model (build_vocab_gemma4), as Gemma4Model.set_vocab writes it
        kv += [
            ("add_tokenizer_model", "gemma4"),
            ("add_token_list", tokens),
            ("add_token_scores", scores),
            ("add_token_types", types),
            ("add_token_merges", vocab[3]),
        ]
    else:
        kv += [
            ("add_tokenizer_model", "llama"),
            ("add_tokenizer_pre", "default"),
            ("add_token_list", tokens),
            ("add_token_scores", scores),
            ("add_token_types", types),
        ]
    kv += [
        ("add_bos_token_id", 2),
        ("add_eos_token_id", 1),
        ("add_unk_token_id", 3),
        ("add_pad_token_id", 0),
        ("add_add_bos_token", True),
        ("add_add_eos_token", False),
        ("add_add_space_prefix", False),
        ("add_chat_template", CHAT_TEMPLATE),
    ]
    return kv


# The vision tower (gemma4v), small: patch 8 pooled 3×3 (24-px steps), so
# scene-250x170.png becomes 240×168 (30×21 patches, 10×7 = 70 tokens: the
# minimum llama.cpp's budget allows).
VISION = dict(v_width=32, v_ff=64, v_blocks=2, v_heads=2, patch=8, pool=3, pos_size=40)


def mmproj_tensors(p, v, W):
    c, ff, P = v["v_width"], v["v_ff"], v["patch"]
    hd = c // v["v_heads"]
    out = [
        # HF's linear [C, 3·p·p] reshaped by the converter into a conv kernel (C, 3, p, p); no bias
        ("v.patch_embd.weight", W.normal((c, 3, P, P), 1.0 / np.sqrt(3 * P * P))),
        # two learned tables (x, y) [2, S, C] (ggml ne [C, S, 2]); F32 (tensor_force_quant)
        ("v.position_embd.weight", W.normal((2, v["pos_size"], c), 0.3)),
    ]
    for i in range(v["v_blocks"]):
        b = f"v.blk.{i}."
        out += [
            (b + "ln1.weight", W.around_one(c)),
            (b + "attn_q.weight", W.linear(c, c)),
            (b + "attn_k.weight", W.linear(c, c)),
            (b + "attn_v.weight", W.linear(c, c)),
            (b + "attn_q_norm.weight", W.around_one(hd) * hd ** -0.25),
            (b + "attn_k_norm.weight", W.around_one(hd) * hd ** -0.25),
            (b + "attn_out.weight", W.linear(c, c)),
            (b + "attn_post_norm.weight", W.around_one(c)),
            (b + "ln2.weight", W.around_one(c)),
            (b + "ffn_gate.weight", W.linear(ff, c)),
            (b + "ffn_up.weight", W.linear(ff, c)),
            (b + "ffn_down.weight", W.linear(c, ff)),
            (b + "ffn_post_norm.weight", W.around_one(c)),
            (b + "out_scale.weight", np.array([0.6 + 0.8 * W.rng.random()], dtype=np.float32)),
        ]
    out += [
        ("mm.input_projection.weight", W.linear(p["n_embd"], c)),
        ("v.std_bias", W.normal((c,), 0.1)),
        ("v.std_scale", W.around_one(c, 0.2)),
    ]
    return out


# Gemma4ClippableLinear's bounds (E2B/E4B's vision tower has them on every
# linear): scalars beside each weight, tight enough that they clamp some
# values; a few left out, which llama.cpp reads as unbounded.
CLIP_LEFT_OUT = {"attn_v.output_min", "attn_v.output_max", "ffn_down.input_min", "attn_out.output_max"}


def clip_tensors(tensors, W):
    out = []
    for name, _ in tensors:
        if not name.endswith(".weight") or name == "v.patch_embd.weight" or not (
                name.startswith("mm.input_projection") or any(k in name for k in ("attn_q.", "attn_k.", "attn_v.",
                                                                                  "attn_out.", "ffn_"))):
            continue
        if "norm" in name:
            continue
        base = name[: -len(".weight")]
        for bound, lo, hi, sign in (("input_min", 0.6, 1.2, -1), ("input_max", 0.6, 1.2, 1),
                                    ("output_min", 0.3, 0.8, -1), ("output_max", 0.3, 0.8, 1)):
            value = sign * (lo + (hi - lo) * W.rng.random())
            if base.split(".")[-1] + "." + bound not in CLIP_LEFT_OUT:
                out.append((f"{base}.{bound}", np.array([value], dtype=np.float32)))
    return out


def mmproj_kv(gguf, p, v):
    kv = rc.mmproj_kv(gguf, "Gemma 4 (random weights, tiny)", gguf.LlamaFileType.ALL_F32, p["n_embd"], 224,
                      v["patch"], v["v_width"], v["v_ff"], v["v_blocks"], v["v_heads"])
    kv = [k for k in kv if k[0] not in ("add_vision_image_mean", "add_vision_image_std")]
    kv += [
        ("add_vision_image_mean", [0.0, 0.0, 0.0]),
        ("add_vision_image_std", [1.0, 1.0, 1.0]),
        ("add_clip_vision_projector_type", gguf.VisionProjectorType.GEMMA4V),
        ("add_vision_attention_layernorm_eps", 1e-6),
        # Not written by the converter: llama.cpp then runs the MLP with quick
        # GELU, while the HF model's vision config says gelu_pytorch_tanh.
        # Written here so that the expected values follow the original model.
        ("add_vision_use_gelu", True),
        ("add_vision_projector_scale_factor", v["pool"]),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ]
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--preset", required=True, choices=sorted(PRESETS))
    ap.add_argument("--out", required=True, help="folder for model.gguf")
    ap.add_argument("--seed", type=int, help="override the preset's weight seed")
    ap.add_argument("--mmproj", action="store_true", help="also write DIR/mmproj.gguf (gemma4v)")
    ap.add_argument("--gemma4-vocab", action="store_true", help="the gemma4 tokenizer model (BPE) instead of gen_gemma3's")
    ap.add_argument("--clip", action="store_true", help="with --mmproj: clippable linears' bounds in the vision tower")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    p = dict(PRESETS[a.preset])
    if a.seed is not None:
        p["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)
    vocab = (build_vocab_gemma4 if a.gemma4_vocab else build_vocab)(gguf.TokenType, p["vocab_pad_to"])
    W = rc.Weights(p["seed"])
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), "gemma4",
                  llm_kv(gguf, p, vocab), llm_tensors(p, len(vocab[0]), W))
    if a.mmproj:
        tensors = mmproj_tensors(p, VISION, rc.Weights(p["seed"] + 1000))
        if a.clip:
            tensors += clip_tensors(tensors, rc.Weights(p["seed"] + 2000))
        rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf, p, VISION), tensors)
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens)")


if __name__ == "__main__":
    main()
