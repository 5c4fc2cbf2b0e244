#!/usr/bin/python3
"""Random-weight InternVL3 / InternVL3.5 GGUF files in the layout llama.cpp's converter writes.

mmproj (`clip`, projector `internvl`) as conversion/internvl.py InternVisionModel
writes it for InternViT-300M: patch convolution with bias, class embedding
(v.class_embd), a learned position table of 1 + grid^2 rows (the class token's
row first), LayerNorm blocks with q/k/v biases (the checkpoint's fused qkv split
by the converter), layer scales v.blk.N.ls1 / ls2 on the attention and MLP
outputs, GELU MLP (clip.use_gelu), no pre- or post-LN; pixel unshuffle by
clip.vision.projector.scale_factor 2 (1 / downsample_ratio 0.5); the mlp1
projector as mm.model.mlp.0 (LayerNorm), .1 and .3 (linear, GELU between);
clip.vision.preproc_min_tiles / preproc_max_tiles; ImageNet mean / std. Only
the sizes are small: image_size 112 (an 8x8 patch grid at patch 14, 16 tokens
per tile) instead of 448.
LLM: qwen2 (InternVL3: q/k/v biases, GQA, untied head) or qwen3 (InternVL3.5:
per-head q/k RMSNorm, no biases), ChatML template. Vocabulary: byte-level BPE
learned by gen_qwen3vl.learn_bpe, Qwen's added tokens, then InternVL's <img>,
</img>, <IMG_CONTEXT>, <quad>, </quad>, <ref>, </ref>, <box>, </box>.

Usage: gen_internvl.py --llama-cpp DIR --config NAME --out DIR [--mmproj-f16]
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_qwen3vl as q3  # noqa: E402  (vocabulary learner and corpus)

CONFIGS = {
    "internvl3-f32": dict(arch="qwen2", seed=2402, name="InternVL3 tiny random",
                          n_embd=128, n_layer=4, n_head=4, n_head_kv=2, n_ff=384,
                          v=dict(width=64, ff=256, blocks=4, heads=4, image_size=112, patch=14,
                                 scale=2, min_tiles=1, max_tiles=6)),
    # widths that are multiples of 32 for Q8_0 (llama-quantize)
    "internvl3-q8src": dict(arch="qwen2", seed=2411, name="InternVL3 tiny random (Q8_0 source)",
                            n_embd=128, n_layer=3, n_head=4, n_head_kv=2, n_ff=256,
                            v=dict(width=64, ff=192, blocks=3, heads=4, image_size=112, patch=14,
                                   scale=2, min_tiles=1, max_tiles=6)),
    "internvl35-f32": dict(arch="qwen3", seed=2424, name="InternVL3.5 tiny random",
                           n_embd=128, n_layer=3, n_head=4, n_head_kv=2, n_ff=256, head_dim=64,
                           v=dict(width=64, ff=256, blocks=3, heads=4, image_size=112, patch=14,
                                  scale=2, min_tiles=1, max_tiles=6)),
}

QWEN_ADDED = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>",
    "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
    "<|repo_name|>", "<|file_sep|>",
]
INTERNVL_ADDED = ["<img>", "</img>", "<IMG_CONTEXT>", "<quad>", "</quad>", "<ref>", "</ref>", "<box>", "</box>"]
VOCAB_SIZE = 1024

CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for item in message['content'] -%}"
    "{%- if item['type'] == 'image' -%}{{- '<image>\\n' -}}"
    "{%- elif item['type'] == 'text' -%}{{- item['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)


def build_vocab(tt, extra=INTERNVL_ADDED):
    byte_tokens, merges = q3.learn_bpe(q3.CORPUS, 600)
    toks = list(byte_tokens)
    for a, b in merges:
        if a + b not in toks:
            toks.append(a + b)
    types = [tt.NORMAL] * len(toks)
    for t in QWEN_ADDED + extra:
        toks.append(t)
        types.append(tt.USER_DEFINED if t in ("<tool_call>", "</tool_call>") else tt.CONTROL)
    while len(toks) < VOCAB_SIZE:
        toks.append(f"[PAD{len(toks)}]")
        types.append(tt.UNUSED)
    return toks, types, [f"{a} {b}" for a, b in merges]


def llm_tensors(cfg, W, n_vocab):
    e, nh, nkv = cfg["n_embd"], cfg["n_head"], cfg["n_head_kv"]
    hd = cfg.get("head_dim", e // nh)
    out = [("token_embd.weight", W.normal((n_vocab, e), 1.0))]
    for i in range(cfg["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, nh, nkv, hd)
        if cfg["arch"] == "qwen2":
            out += [(b + "attn_q.bias", W.normal((nh * hd,), 0.3)), (b + "attn_k.bias", W.normal((nkv * hd,), 0.3)),
                    (b + "attn_v.bias", W.normal((nkv * hd,), 0.1))]
        else:
            out += [(b + "attn_q_norm.weight", W.around_one(hd) * 1.6), (b + "attn_k_norm.weight", W.around_one(hd) * 1.6)]
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
    out += [("output_norm.weight", W.around_one(e)), ("output.weight", W.linear(n_vocab, e, gain=3.0))]
    return out


def llm_kv(gguf, cfg, vocab):
    toks, types, merges = vocab
    e, nh = cfg["n_embd"], cfg["n_head"]
    hd = cfg.get("head_dim", e // nh)
    kv = rc.text_model_kv(gguf, cfg["name"], cfg["n_layer"], 32768 if cfg["arch"] == "qwen2" else 40960, e,
                          cfg["n_ff"], nh, cfg["n_head_kv"])
    kv += [("add_rope_freq_base", 1000000.0), ("add_layer_norm_rms_eps", 1e-6)]
    if cfg["arch"] == "qwen3":
        kv += [("add_key_length", hd), ("add_value_length", hd)]
    kv += [
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
        ("add_tokenizer_model", "gpt2"),
        ("add_tokenizer_pre", "qwen2"),
        ("add_token_list", toks),
        ("add_token_types", types),
        ("add_token_merges", merges),
        ("add_eos_token_id", toks.index("<|im_end|>")),
        ("add_pad_token_id", toks.index("<|endoftext|>")),
        ("add_bos_token_id", toks.index("<|endoftext|>")),
        ("add_add_bos_token", False),
        ("add_chat_template", CHAT_TEMPLATE),
    ]
    return kv


def mmproj_tensors(cfg, W, f16):
    v = cfg["v"]
    c, ff, p = v["width"], v["ff"], v["patch"]
    mat = (lambda a: a.astype(np.float16)) if f16 else (lambda a: a)
    n_pos = 1 + (v["image_size"] // p) ** 2
    out = [
        ("v.class_embd", W.normal((c,), 1.0)),
        ("v.patch_embd.weight", mat(W.normal((c, 3, p, p), 1.0 / np.sqrt(3 * p * p)))),
        ("v.patch_embd.bias", W.normal((c,), 0.02)),
        ("v.position_embd.weight", W.normal((n_pos, c), 0.5)),
    ]
    for i in range(v["blocks"]):
        b = f"v.blk.{i}."
        out += [
            (b + "attn_q.weight", mat(W.linear(c, c, 1.5))), (b + "attn_q.bias", W.normal((c,), 0.05)),
            (b + "attn_k.weight", mat(W.linear(c, c, 1.5))), (b + "attn_k.bias", W.normal((c,), 0.05)),
            (b + "attn_v.weight", mat(W.linear(c, c))), (b + "attn_v.bias", W.normal((c,), 0.05)),
            (b + "attn_out.weight", mat(W.linear(c, c))), (b + "attn_out.bias", W.normal((c,), 0.02)),
            (b + "ln1.weight", W.around_one(c)), (b + "ln1.bias", W.normal((c,), 0.02)),
            (b + "ffn_up.weight", mat(W.linear(ff, c))), (b + "ffn_up.bias", W.normal((ff,), 0.02)),
            (b + "ffn_down.weight", mat(W.linear(c, ff))), (b + "ffn_down.bias", W.normal((c,), 0.02)),
            (b + "ln2.weight", W.around_one(c)), (b + "ln2.bias", W.normal((c,), 0.02)),
            # layer scales spread per channel, so that a missing or swapped one shows
            (b + "ls1.weight", W.around_one(c, 0.4) * 0.7), (b + "ls2.weight", W.around_one(c, 0.4) * 0.7),
        ]
    m = c * v["scale"] ** 2
    e = cfg["n_embd"]
    out += [
        ("mm.model.mlp.0.weight", W.around_one(m)), ("mm.model.mlp.0.bias", W.normal((m,), 0.05)),
        ("mm.model.mlp.1.weight", mat(W.linear(e, m, 1.5))), ("mm.model.mlp.1.bias", W.normal((e,), 0.05)),
        ("mm.model.mlp.3.weight", mat(W.linear(e, e))), ("mm.model.mlp.3.bias", W.normal((e,), 0.05)),
    ]
    return out


def mmproj_kv(gguf, cfg, f16):
    v = cfg["v"]
    ftype = gguf.LlamaFileType.MOSTLY_F16 if f16 else gguf.LlamaFileType.ALL_F32
    kv = rc.mmproj_kv(gguf, cfg["name"] + " vision", ftype, cfg["n_embd"], v["image_size"], v["patch"], v["width"],
                      v["ff"], v["blocks"], v["heads"])
    # ImageNet mean / std (the InternVL processor's), in place of refgen_common's 0.5
    kv = [k for k in kv if k[0] not in ("add_vision_image_mean", "add_vision_image_std")]
    kv += [
        ("add_vision_image_mean", [0.485, 0.456, 0.406]),
        ("add_vision_image_std", [0.229, 0.224, 0.225]),
        ("add_clip_projector_type", gguf.VisionProjectorType.INTERNVL),
        ("add_vision_attention_layernorm_eps", 1e-6),
        ("add_vision_use_gelu", True),
        ("add_vision_projector_scale_factor", v["scale"]),
        ("add_vision_preproc_min_tiles", v["min_tiles"]),
        ("add_vision_preproc_max_tiles", v["max_tiles"]),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ]
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(CONFIGS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--mmproj-f16", action="store_true", help="2-D matrices and the patch kernel in F16")
    ap.add_argument("--seed", type=int, help="weight seed (default: the configuration's)")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    cfg = dict(CONFIGS[a.config])
    if a.seed is not None:
        cfg["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)
    vocab = build_vocab(gguf.TokenType)
    W = rc.Weights(cfg["seed"])
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), cfg["arch"], llm_kv(gguf, cfg, vocab),
                  llm_tensors(cfg, W, len(vocab[0])))
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg, a.mmproj_f16),
                  mmproj_tensors(cfg, W, a.mmproj_f16))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
