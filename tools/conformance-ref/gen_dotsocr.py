#!/usr/bin/python3
"""Random-weight dots.ocr GGUF files in the layout llama.cpp's converter writes.

LLM: `qwen2` (conversion/qwen.py Qwen2Model, which DotsOCRForCausalLM maps to): q/k/v
biases, GQA, untied head; gen_internvl.py's qwen2 writer with dots.ocr's added tokens
(<|img|>, <|imgpad|>, <|endofimg|>, <|system|>, <|endofsystem|>, <|user|>,
<|endofuser|>, <|assistant|>, <|endofassistant|>), EOS <|endofassistant|> and a chat
template of dots.ocr's shape.

mmproj (projector `dots_ocr`, conversion/dotsocr.py DotsOCRVisionModel): image_size 0
(dynamic), patch 14, clip.vision.image_min_pixels / image_max_pixels,
clip.vision.projector.scale_factor (spatial_merge_size 2), clip.use_silu; the tower
under llama.cpp's names: v.patch_embd (conv with bias), blocks with RMSNorm ln1 / ln2
(no bias), a fused attn_qkv and attn_out without biases (use_bias false), SwiGLU
ffn_gate (fc1) / ffn_up (fc3) / ffn_down (fc2), no position table; mm.post_norm (the
trunk's RMSNorm after the blocks), then mm.input_norm (LayerNorm with bias),
mm.0 -> GELU (erf) -> mm.2, with biases.

Left out on purpose: v.norm_embd (the checkpoint's patchifier.norm, an RMSNorm right
after the patch convolution). The converter writes it and the original model applies
it, but llama.cpp's dots_ocr graph (tools/mtmd/models/dotsocr.cpp) never reads it, so a
file with it would make llama.cpp's expected values disagree with the model; seer
applies it when present (as the original does), and these cases check everything else.

Usage: gen_dotsocr.py --llama-cpp DIR --config NAME --out DIR
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf (F32))
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_internvl as iv  # noqa: E402  (the qwen2 LLM and its byte-level BPE vocabulary)

PATCH = 14
DOTS_ADDED = ["<|img|>", "<|imgpad|>", "<|endofimg|>", "<|system|>", "<|endofsystem|>", "<|user|>",
              "<|endofuser|>", "<|assistant|>", "<|endofassistant|>"]

CONFIGS = {
    # qwen2 4 layers, 4 query / 2 KV heads of 32; tower 64 wide, 3 blocks, SwiGLU 128;
    # budget 4..48 tokens of 28 x 28 px
    "dotsocr-f32": dict(arch="qwen2", seed=4203, name="dots.ocr tiny random",
                        n_embd=128, n_layer=4, n_head=4, n_head_kv=2, n_ff=256, min_tokens=4, max_tokens=48,
                        v=dict(width=64, ff=128, blocks=3, heads=4, mid=256, scale=2)),
    # widths multiples of 32 for Q8_0 (llama-quantize); budget 4..64 tokens
    "dotsocr-q8src": dict(arch="qwen2", seed=4219, name="dots.ocr tiny random (Q8_0 source)",
                          n_embd=128, n_layer=3, n_head=4, n_head_kv=2, n_ff=256, min_tokens=4, max_tokens=64,
                          v=dict(width=64, ff=128, blocks=2, heads=4, mid=128, scale=2)),
}

CHAT_TEMPLATE = (
    "{%- for m in messages -%}"
    "{%- if m['role'] == 'system' -%}{{- '<|system|>' + m['content'] + '<|endofsystem|>\\n' -}}"
    "{%- elif m['role'] == 'user' -%}{{- '<|user|>' + m['content'] + '<|endofuser|>' -}}"
    "{%- elif m['role'] == 'assistant' -%}{{- '<|assistant|>' + m['content'] -}}"
    "{%- if not loop.last -%}{{- '<|endofassistant|>' -}}{%- endif -%}{%- endif -%}"
    "{%- endfor -%}"
    "{%- if messages[-1]['role'] != 'assistant' -%}{{- '<|assistant|>' -}}{%- endif -%}"
)


def llm_kv(gguf, cfg, vocab):
    kv = [k for k in iv.llm_kv(gguf, cfg, vocab) if k[0] not in ("add_eos_token_id", "add_chat_template")]
    return kv + [("add_eos_token_id", vocab[0].index("<|endofassistant|>")), ("add_chat_template", CHAT_TEMPLATE)]


def mmproj_tensors(cfg, W):
    v, n_text = cfg["v"], cfg["n_embd"]
    c, ff, s = v["width"], v["ff"], v["scale"]
    out = [
        ("v.patch_embd.weight", W.normal((c, 3, PATCH, PATCH), 1.0 / np.sqrt(3 * PATCH * PATCH))),
        ("v.patch_embd.bias", W.normal((c,), 0.02)),
    ]
    for i in range(v["blocks"]):
        b = f"v.blk.{i}."
        out += [
            (b + "attn_qkv.weight", W.linear(3 * c, c, 1.5)),
            (b + "attn_out.weight", W.linear(c, c)),
            (b + "ffn_gate.weight", W.linear(ff, c, 1.5)),
            (b + "ffn_up.weight", W.linear(ff, c, 1.5)),
            (b + "ffn_down.weight", W.linear(c, ff)),
            (b + "ln1.weight", W.around_one(c, 0.2)),
            (b + "ln2.weight", W.around_one(c, 0.2)),
        ]
    return out + [
        ("mm.post_norm.weight", W.around_one(c, 0.2)),
        ("mm.input_norm.weight", W.around_one(c, 0.2)), ("mm.input_norm.bias", W.normal((c,), 0.1)),
        ("mm.0.weight", W.linear(v["mid"], s * s * c, 1.5)), ("mm.0.bias", W.normal((v["mid"],), 0.05)),
        ("mm.2.weight", W.linear(n_text, v["mid"])), ("mm.2.bias", W.normal((n_text,), 0.05)),
    ]


def mmproj_kv(gguf, cfg):
    v = cfg["v"]
    cell = (PATCH * v["scale"]) ** 2
    return rc.mmproj_kv(gguf, cfg["name"] + " vision", gguf.LlamaFileType.ALL_F32, cfg["n_embd"], 0, PATCH,
                        v["width"], v["ff"], v["blocks"], v["heads"]) + [
        ("add_clip_projector_type", gguf.VisionProjectorType.DOTSOCR),
        ("add_vision_min_pixels", cfg["min_tokens"] * cell),
        ("add_vision_max_pixels", cfg["max_tokens"] * cell),
        ("add_vision_attention_layernorm_eps", 1e-5),
        ("add_vision_projector_scale_factor", v["scale"]),
        ("add_vision_use_silu", True),
    ]


def write_pair(gguf, cfg, out):
    vocab = iv.build_vocab(gguf.TokenType, DOTS_ADDED)
    W = rc.Weights(cfg["seed"])
    rc.write_gguf(gguf, os.path.join(out, "model.gguf"), "qwen2", llm_kv(gguf, cfg, vocab),
                  iv.llm_tensors(cfg, W, len(vocab[0])))
    rc.write_gguf(gguf, os.path.join(out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg), mmproj_tensors(cfg, W))
    return len(vocab[0])


if __name__ == "__main__":
    rc.model_pair_cli(__doc__, CONFIGS, write_pair)
