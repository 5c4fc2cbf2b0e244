#!/usr/bin/python3
"""Random-weight LFM2-VL GGUF files in the layout llama.cpp's converter writes.

mmproj (`clip`, projector `lfm2`) as conversion/lfm2.py LFM2VLModel writes it:
image_size 256 (the converter's dummy), patch 16, a SigLIP2 NaFlex tower under
llama.cpp's names (patch convolution with bias, a 16x16 learned position table
that the encoder resizes to the patch grid, LayerNorm blocks with biases, tanh
GELU, post-LN), clip.vision.projector.scale_factor 2 (pixel unshuffle), the
projector mm.input_norm (LayerNorm) -> mm.1 -> GELU -> mm.2; mean / std 0.5.
LLM: lfm2, the hybrid decoder: lfm2.attention.head_count_kv is an array, 0 on
short-convolution layers (blk.N.shortconv.{conv,in_proj,out_proj}), n_kv on
attention layers (q/k/v/output with per-head q/k RMSNorm); token_embd_norm is
the final norm; lfm2.shortconv.l_cache 3. Vocabulary: byte-level BPE learned by
gen_qwen3vl.learn_bpe (pre-tokenizer lfm2), LFM2's special tokens, ChatML-like
template with the BOS token.

Usage: gen_lfm2vl.py --llama-cpp DIR --config NAME --out DIR [--mmproj-f16]
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_qwen3vl as q3  # noqa: E402  (vocabulary learner and corpus)

# layer kinds: "c" short convolution, "a" attention (LFM2-350M's order starts c, c, a, ...)
CONFIGS = {
    "lfm2vl-f32": dict(seed=2431, name="LFM2-VL tiny random", layers="ccacac",
                       n_embd=128, n_head=4, n_head_kv=2, n_ff=256, l_cache=3,
                       v=dict(width=64, ff=192, blocks=3, heads=4, patch=16, scale=2, n_hid=256)),
    # widths that are multiples of 32 for Q8_0 (llama-quantize)
    "lfm2vl-q8src": dict(seed=2437, name="LFM2-VL tiny random (Q8_0 source)", layers="ccaca",
                         n_embd=128, n_head=4, n_head_kv=2, n_ff=256, l_cache=3,
                         v=dict(width=64, ff=192, blocks=2, heads=4, patch=16, scale=2, n_hid=128)),
    # widths that are multiples of 256 for the K-quants (llama-quantize Q4_K_M: Q4_K and Q6_K blocks)
    "lfm2vl-q4ksrc": dict(seed=2448, name="LFM2-VL tiny random (Q4_K_M source)", layers="cacca",
                          n_embd=256, n_head=4, n_head_kv=2, n_ff=256, l_cache=3,
                          v=dict(width=64, ff=192, blocks=2, heads=4, patch=16, scale=2, n_hid=128)),
}

ADDED = ["<|pad|>", "<|startoftext|>", "<|endoftext|>", "<|fim_pre|>", "<|fim_mid|>", "<|fim_suf|>",
         "<|im_start|>", "<|im_end|>", "<|tool_list_start|>", "<|tool_list_end|>", "<|tool_call_start|>",
         "<|tool_call_end|>", "<|tool_response_start|>", "<|tool_response_end|>", "<image>",
         "<|image_start|>", "<|image_end|>", "<|img_thumbnail|>"] + \
        [f"<|img_row_{r}_col_{c}|>" for r in range(1, 11) for c in range(1, 11)]
VOCAB_SIZE = 1024

CHAT_TEMPLATE = (
    "{{- bos_token -}}"
    "{%- for message in messages -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for item in message['content'] -%}"
    "{%- if item['type'] == 'image' -%}{{- '<image>' -}}"
    "{%- elif item['type'] == 'text' -%}{{- item['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)


def build_vocab(tt):
    byte_tokens, merges = q3.learn_bpe(q3.CORPUS, 500)
    toks = list(byte_tokens)
    for a, b in merges:
        if a + b not in toks:
            toks.append(a + b)
    types = [tt.NORMAL] * len(toks)
    for t in ADDED:
        toks.append(t)
        types.append(tt.CONTROL)
    assert len(toks) <= VOCAB_SIZE
    while len(toks) < VOCAB_SIZE:
        toks.append(f"[PAD{len(toks)}]")
        types.append(tt.UNUSED)
    return toks, types, [f"{a} {b}" for a, b in merges]


def llm_tensors(cfg, W, n_vocab):
    e, nh, nkv = cfg["n_embd"], cfg["n_head"], cfg["n_head_kv"]
    hd = e // nh
    out = [("token_embd.weight", W.normal((n_vocab, e), 1.0))]
    for i, kind in enumerate(cfg["layers"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        if kind == "c":
            # the depthwise kernel [n_embd, l_cache] (squeezed from HF's [n_embd, 1, l_cache])
            out += [(b + "shortconv.conv.weight", W.normal((e, cfg["l_cache"]), 0.6)),
                    (b + "shortconv.in_proj.weight", W.linear(3 * e, e, 1.5)),
                    (b + "shortconv.out_proj.weight", W.linear(e, e))]
        else:
            out += [(b + "attn_q_norm.weight", W.around_one(hd) * 1.6), (b + "attn_k_norm.weight", W.around_one(hd) * 1.6)]
            out += rc.attention_tensors(W, b, e, nh, nkv, hd)
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
    out += [("token_embd_norm.weight", W.around_one(e)), ("output.weight", W.linear(n_vocab, e, gain=3.0))]
    return out


def llm_kv(gguf, cfg, vocab):
    toks, types, merges = vocab
    e, nh = cfg["n_embd"], cfg["n_head"]
    kv_per_layer = [cfg["n_head_kv"] if k == "a" else 0 for k in cfg["layers"]]
    kv = rc.text_model_kv(gguf, cfg["name"], len(cfg["layers"]), 128000, e, cfg["n_ff"], nh, kv_per_layer)
    kv += [("add_rope_freq_base", 1000000.0), ("add_vocab_size", len(toks)),
           ("add_shortconv_l_cache", cfg["l_cache"]), ("add_layer_norm_rms_eps", 1e-5)]
    kv += [
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
        ("add_tokenizer_model", "gpt2"),
        ("add_tokenizer_pre", "lfm2"),
        ("add_token_list", toks),
        ("add_token_types", types),
        ("add_token_merges", merges),
        ("add_bos_token_id", toks.index("<|startoftext|>")),
        ("add_eos_token_id", toks.index("<|im_end|>")),
        ("add_pad_token_id", toks.index("<|pad|>")),
        ("add_add_bos_token", True),
        ("add_chat_template", CHAT_TEMPLATE),
    ]
    return kv


def mmproj_tensors(cfg, W, f16):
    v = cfg["v"]
    c, p = v["width"], v["patch"]
    mat = (lambda a: a.astype(np.float16)) if f16 else (lambda a: a)
    out = rc.siglip_tensors(W, c, v["ff"], v["blocks"], p, 16 * 16, mat)
    m = c * v["scale"] ** 2
    out += [
        ("mm.input_norm.weight", W.around_one(m)), ("mm.input_norm.bias", W.normal((m,), 0.05)),
        ("mm.1.weight", mat(W.linear(v["n_hid"], m, 1.5))), ("mm.1.bias", W.normal((v["n_hid"],), 0.05)),
        ("mm.2.weight", mat(W.linear(cfg["n_embd"], v["n_hid"]))), ("mm.2.bias", W.normal((cfg["n_embd"],), 0.05)),
    ]
    return out


def mmproj_kv(gguf, cfg, f16):
    v = cfg["v"]
    ftype = gguf.LlamaFileType.MOSTLY_F16 if f16 else gguf.LlamaFileType.ALL_F32
    kv = rc.mmproj_kv(gguf, cfg["name"] + " vision", ftype, cfg["n_embd"], 256, v["patch"], v["width"],
                      v["ff"], v["blocks"], v["heads"])
    kv += [
        ("add_clip_projector_type", gguf.VisionProjectorType.LFM2),
        ("add_vision_attention_layernorm_eps", 1e-6),
        ("add_vision_projector_scale_factor", v["scale"]),
        ("add_vision_use_gelu", True),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ]
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(CONFIGS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--mmproj-f16", action="store_true", help="2-D matrices in F16")
    ap.add_argument("--seed", type=int, help="weight seed (default: the configuration's)")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    cfg = dict(CONFIGS[a.config])
    if a.seed is not None:
        cfg["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)
    vocab = build_vocab(gguf.TokenType)
    W = rc.Weights(cfg["seed"])
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), "lfm2", llm_kv(gguf, cfg, vocab),
                  llm_tensors(cfg, W, len(vocab[0])))
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg, a.mmproj_f16),
                  mmproj_tensors(cfg, W, a.mmproj_f16))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
