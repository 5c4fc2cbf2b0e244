#!/usr/bin/python3
"""Random-weight HunyuanOCR GGUF files in the layout llama.cpp's converter writes.

LLM (arch `hunyuan_vl`, conversion/hunyuan.py HunyuanVLTextModel on HunYuanModel): a
dense LLaMA-like decoder (RMSNorm, separate attn_q/k/v/output without biases, per-head
attn_q_norm / attn_k_norm that llama.cpp applies AFTER RoPE, SwiGLU ffn_gate/up/down,
tied head: no output.weight), key_length / value_length; the xdrope keys:
rope.freq_base = rope_theta (unscaled), rope.scaling.alpha (llama.cpp raises the base
to base * alpha^(d/(d-2)) at load), rope.scaling.type none, factor 1, orig_ctx_len,
rope.dimension_sections (4 sections: t, w, h, image index; rope type MROPE).
Byte-level BPE (gen_qwen3vl's) with pre-tokenizer hunyuan-dense, the hash
HunyuanOCR's tokenizer.json gives (it is Hunyuan-0.5B/1.8B/4B's 6 MB tokenizer);
Hunyuan's fullwidth markers <｜hy_begin▁of▁sentence｜>, <｜hy_User｜>, <｜hy_Assistant｜>,
<｜hy_place▁holder▁no▁3｜>, <｜hy_place▁holder▁no▁100｜> / 101 / 102 as control
tokens; a chat template llama.cpp detects as hunyuan-vl.

mmproj (projector `hunyuanvl`, HunyuanVLVisionModel): patch 16 conv with bias, the
learned position table with the CLS row dropped (a square grid llama.cpp resamples on
the CPU with its (target + 0.1) / grid scale), LayerNorm blocks with biases
(attention and GELU MLP, clip.use_gelu), no pre / post LN; the perceiver:
mm.pre_norm (RMS) -> mm.0 (conv 2x2 stride 2, with bias, F32 as the converter forces)
-> GELU -> mm.2 (conv 1x1, with bias) -> v.image_newline after each row ->
mm.model.fc (with bias) -> mm.image_begin first, mm.image_end last -> mm.post_norm
(RMS); clip.vision.image_min_pixels / image_max_pixels, spatial_merge_size 2,
layer_norm_epsilon 1e-5, image_size = max_image_size (2048).

Usage: gen_hunyuanocr.py --llama-cpp DIR --config NAME --out DIR
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf (F32))
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_qwen3vl as q3  # noqa: E402  (the byte-level BPE and its tokenizer keys)

PATCH = 16
CELL = 2 * PATCH   # one merged token covers 32 x 32 pixels
ROPE_THETA = 10000.0
ALPHA = 1000.0     # HunyuanOCR's xdrope alpha
CONTEXT_LENGTH = 32768
MAX_IMAGE_SIZE = 2048

BOS = "<｜hy_begin▁of▁sentence｜>"
ADDED = [BOS, "<｜hy_end▁of▁sentence｜>", "<｜hy_User｜>", "<｜hy_Assistant｜>", "<｜hy_place▁holder▁no▁2｜>",
         "<｜hy_place▁holder▁no▁3｜>", "<｜hy_place▁holder▁no▁100｜>", "<｜hy_place▁holder▁no▁101｜>",
         "<｜hy_place▁holder▁no▁102｜>", "<｜hy_▁pad▁｜>"]

CONFIGS = {
    # 4 layers, 4 query / 2 KV heads of 32, sections [4, 4, 4, 4] (16 pairs); tower 64 wide,
    # 3 blocks, GELU 128, conv 64*4 -> 128 -> 256 -> 128; position table 12 x 12;
    # budget 4..48 tokens of 32 x 32 px: scene-250x170 -> 256 x 160 (16 x 10 patches:
    # the table stretched across, shrunk down), 8 x 5 cells, (8 + 1) * 5 + 2 = 47 tokens
    "hunyuanocr-f32": dict(seed=4301, name="HunyuanOCR tiny random",
                           n_embd=128, n_layer=4, n_head=4, n_head_kv=2, head_dim=32, sections=[4, 4, 4, 4],
                           n_ff=256, min_tokens=4, max_tokens=48,
                           v=dict(width=64, ff=128, blocks=3, heads=4, pos_side=12, c1=128, c2=256)),
    # widths multiples of 32 for Q8_0 (llama-quantize); budget 4..64 tokens; table 8 x 8
    "hunyuanocr-q8src": dict(seed=4317, name="HunyuanOCR tiny random (Q8_0 source)",
                             n_embd=128, n_layer=3, n_head=4, n_head_kv=1, head_dim=32, sections=[4, 4, 4, 4],
                             n_ff=320, min_tokens=4, max_tokens=64,
                             v=dict(width=64, ff=128, blocks=2, heads=4, pos_side=8, c1=128, c2=192)),
}

# HunyuanOCR's shape: BOS, [system <｜hy_place▁holder▁no▁3｜>], each turn's content
# followed by its role marker (images before the text of a user turn)
CHAT_TEMPLATE = (
    "{{- '" + BOS + "' -}}"
    "{%- for m in messages -%}"
    "{%- if m['role'] == 'system' and loop.first -%}{{- m['content'] + '<｜hy_place▁holder▁no▁3｜>' -}}"
    "{%- elif m['role'] == 'user' -%}"
    "{%- if m['content'] is string -%}{{- m['content'] -}}{%- else -%}"
    "{%- for c in m['content'] if c['type'] == 'image' -%}"
    "{{- '<｜hy_place▁holder▁no▁100｜><｜hy_place▁holder▁no▁102｜><｜hy_place▁holder▁no▁101｜>' -}}"
    "{%- endfor -%}"
    "{%- for c in m['content'] if c['type'] == 'text' -%}{{- c['text'] -}}{%- endfor -%}{%- endif -%}"
    "{{- '<｜hy_User｜>' -}}"
    "{%- elif m['role'] == 'assistant' -%}{{- m['content'] + '<｜hy_Assistant｜>' -}}"
    "{%- endif -%}{%- endfor -%}"
)


def build_vocab(gguf):
    return q3.build_vocab(gguf, added=ADDED, control=lambda t: True, bos=BOS,
                          eos="<｜hy_end▁of▁sentence｜>", pad="<｜hy_▁pad▁｜>", eot="<｜hy_place▁holder▁no▁2｜>")


def llm_tensors(cfg, W, n_vocab):
    e, hd = cfg["n_embd"], cfg["head_dim"]
    out = [("token_embd.weight", W.normal((n_vocab, e), 0.5))]
    for i in range(cfg["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, cfg["n_head"], cfg["n_head_kv"], hd)
        # far from 1: the norms' place (before or after RoPE) must show
        out += [(b + "attn_q_norm.weight", W.around_one(hd, 0.3) * 1.6),
                (b + "attn_k_norm.weight", W.around_one(hd, 0.3) * 1.6)]
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
    out += [("output_norm.weight", W.around_one(e))]
    return out


def write_llm(gguf, cfg, path, vocab):
    hd = cfg["head_dim"]
    kv = rc.text_model_kv(gguf, cfg["name"], cfg["n_layer"], CONTEXT_LENGTH, cfg["n_embd"], cfg["n_ff"],
                          cfg["n_head"], cfg["n_head_kv"]) + [
        ("add_layer_norm_rms_eps", 1e-5),
        ("add_key_length", hd),
        ("add_value_length", hd),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        # HunyuanVLTextModel's xdrope keys (the base unscaled, alpha beside it)
        ("add_rope_freq_base", ROPE_THETA),
        ("add_rope_scaling_alpha", ALPHA),
        ("add_rope_scaling_type", gguf.RopeScalingType.NONE),
        ("add_rope_scaling_factor", 1.0),
        ("add_rope_scaling_orig_ctx_len", CONTEXT_LENGTH),
        ("add_rope_dimension_sections", cfg["sections"]),
    ]
    W = rc.Weights(cfg["seed"])
    w = gguf.GGUFWriter(path, "hunyuan_vl")
    for call in kv:
        getattr(w, call[0])(*call[1:])
    q3.add_vocab(gguf, w, vocab, "hunyuan-dense", CHAT_TEMPLATE)
    for name, arr in llm_tensors(cfg, W, len(vocab["tokens"])):
        w.add_tensor(name, np.ascontiguousarray(arr))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return W


def mmproj_tensors(cfg, W):
    v, n_text = cfg["v"], cfg["n_embd"]
    c, ff, c1, c2 = v["width"], v["ff"], v["c1"], v["c2"]
    # the SigLIP-shaped tower without post-LN (HunyuanVL's ViT has none)
    out = [t for t in rc.siglip_tensors(W, c, ff, v["blocks"], PATCH, v["pos_side"] ** 2)
           if not t[0].startswith("v.post_ln")]
    return out + [
        ("mm.pre_norm.weight", W.around_one(c, 0.3)),
        ("mm.0.weight", W.normal((c1, c, 2, 2), 1.5 / np.sqrt(4 * c))), ("mm.0.bias", W.normal((c1,), 0.05)),
        ("mm.2.weight", W.normal((c2, c1, 1, 1), 1.0 / np.sqrt(c1))), ("mm.2.bias", W.normal((c2,), 0.05)),
        ("v.image_newline", W.normal((c2,), 0.5)),
        ("mm.model.fc.weight", W.linear(n_text, c2)), ("mm.model.fc.bias", W.normal((n_text,), 0.05)),
        ("mm.image_begin", W.normal((n_text,), 0.5)),
        ("mm.image_end", W.normal((n_text,), 0.5)),
        ("mm.post_norm.weight", W.around_one(n_text, 0.3)),
    ]


def mmproj_kv(gguf, cfg):
    v = cfg["v"]
    min_px, max_px = cfg["min_tokens"] * CELL * CELL, cfg["max_tokens"] * CELL * CELL
    return rc.mmproj_kv(gguf, cfg["name"] + " vision", gguf.LlamaFileType.ALL_F32, cfg["n_embd"], MAX_IMAGE_SIZE,
                        PATCH, v["width"], v["ff"], v["blocks"], v["heads"]) + [
        ("add_clip_projector_type", gguf.VisionProjectorType.HUNYUANVL),
        ("add_vision_use_gelu", True),
        ("add_vision_attention_layernorm_eps", 1e-5),
        ("add_vision_spatial_merge_size", 2),
        ("add_vision_min_pixels", min_px),
        ("add_vision_max_pixels", max_px),
    ]


def write_pair(gguf, cfg, out):
    vocab = build_vocab(gguf)
    W = write_llm(gguf, cfg, os.path.join(out, "model.gguf"), vocab)
    rc.write_gguf(gguf, os.path.join(out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg), mmproj_tensors(cfg, W))
    return len(vocab["tokens"])


if __name__ == "__main__":
    rc.model_pair_cli(__doc__, CONFIGS, write_pair)
