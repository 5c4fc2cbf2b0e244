#!/usr/bin/python3
"""Random-weight PaddleOCR-VL GGUF files in the layout llama.cpp's converter writes.

LLM (arch `paddleocr`, conversion/ernie.py PaddleOCRModel via Ernie4_5Model): ERNIE-4.5
as a LLaMA-like decoder (RMSNorm, separate attn_q/k/v without biases, attn_output,
SwiGLU ffn_gate/up/down, tied head: no output.weight), run by llama.cpp on the Qwen2-VL
graph: M-RoPE with rope.dimension_sections (non-interleaved), head_dim from key_length.
SentencePiece vocabulary (tokenizer model "llama") learned here, with ERNIE's markers
<|begin_of_sentence|>, <|IMAGE_START|>, <|IMAGE_PLACEHOLDER|>, <|IMAGE_END|> as control
tokens; a chat template of PaddleOCR-VL's shape (User: / Assistant:).

mmproj (projector `paddleocr`, PaddleOCRVisionModel): a SigLIP NaViT tower under
llama.cpp's names (refgen_common.siglip_tensors: patch conv with bias, a square learned
position table that the encoder resizes to the patch grid (bilinear + antialias), LayerNorm
blocks with biases, GELU, post-LN), image_size = int(sqrt(max_pixels)) as the converter
sets it, clip.vision.image_min_pixels / image_max_pixels, clip.use_gelu; the projector
(mlp_AR) mm.input_norm (LayerNorm over the tower's width) -> 2x2 unshuffle -> mm.1 ->
GELU -> mm.2, all with biases.

Usage: gen_paddleocr.py --llama-cpp DIR --config NAME --out DIR
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf (F32))
"""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402

ADDED = ["<|begin_of_sentence|>", "<|end_of_sentence|>", "<|IMAGE_START|>", "<|IMAGE_PLACEHOLDER|>",
         "<|IMAGE_END|>"]
VOCAB_SIZE = 1024
PATCH = 14
CELL = 2 * PATCH  # one merged token covers 28 x 28 pixels

CONFIGS = {
    # 4 layers, 4 query / 2 KV heads of 32, sections [4, 6, 6, 0] (16 pairs = head_dim / 2);
    # budget 48 tokens, so scene-250x170 -> 224 x 140 (16 x 10 patches, 8 x 5 tokens);
    # position table 12 x 12: stretched across, shrunk down (both resize paths)
    "paddleocr-f32": dict(seed=4101, name="PaddleOCR-VL tiny random",
                          n_embd=128, n_layer=4, n_head=4, n_head_kv=2, head_dim=32, sections=[4, 6, 6, 0],
                          n_ff=256, min_tokens=4, max_tokens=48,
                          v=dict(width=64, ff=128, blocks=3, heads=4, pos_side=12, mid=256)),
    # widths multiples of 32 for Q8_0 (llama-quantize); budget 64 tokens
    "paddleocr-q8src": dict(seed=4117, name="PaddleOCR-VL tiny random (Q8_0 source)",
                            n_embd=128, n_layer=3, n_head=4, n_head_kv=1, head_dim=32, sections=[4, 6, 6, 0],
                            n_ff=320, min_tokens=4, max_tokens=64,
                            v=dict(width=64, ff=128, blocks=2, heads=4, pos_side=8, mid=128)),
}

# Jinja of PaddleOCR-VL's shape: images before the text of a user turn
CHAT_TEMPLATE = (
    "{{- '<|begin_of_sentence|>' -}}"
    "{%- for m in messages -%}"
    "{%- if m['role'] == 'user' -%}{{- 'User: ' -}}"
    "{%- for c in m['content'] if c['type'] == 'image' -%}"
    "{{- '<|IMAGE_START|><|IMAGE_PLACEHOLDER|><|IMAGE_END|>' -}}{%- endfor -%}"
    "{%- for c in m['content'] if c['type'] == 'text' -%}{{- c['text'] -}}{%- endfor -%}{{- '\\n' -}}"
    "{%- elif m['role'] == 'assistant' -%}{{- 'Assistant: ' + m['content'][0]['text'] + '</s>' -}}"
    "{%- endif -%}{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- 'Assistant: ' -}}{%- endif -%}"
)


def llm_tensors(cfg, W, n_vocab):
    e, hd = cfg["n_embd"], cfg["head_dim"]
    out = [("token_embd.weight", W.normal((n_vocab, e), 0.5))]
    for i in range(cfg["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, cfg["n_head"], cfg["n_head_kv"], hd)
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
    out += [("output_norm.weight", W.around_one(e))]
    return out


def llm_kv(gguf, cfg, vocab):
    toks = vocab[0]
    e, hd = cfg["n_embd"], cfg["head_dim"]
    return rc.text_model_kv(gguf, cfg["name"], cfg["n_layer"], 131072, e, cfg["n_ff"], cfg["n_head"],
                            cfg["n_head_kv"]) + [
        ("add_rope_freq_base", 500000.0),
        ("add_layer_norm_rms_eps", 1e-5),
        ("add_key_length", hd),
        ("add_value_length", hd),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_rope_dimension_sections", cfg["sections"]),
        ("add_vocab_size", len(toks)),
        ("add_rope_dimension_count", hd),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ] + rc.spm_vocab_kv(vocab) + [
        ("add_add_space_prefix", False),
        ("add_chat_template", CHAT_TEMPLATE),
    ]


def mmproj_tensors(cfg, W):
    v, n_text = cfg["v"], cfg["n_embd"]
    c = v["width"]
    out = rc.siglip_tensors(W, c, v["ff"], v["blocks"], PATCH, v["pos_side"] ** 2)
    return out + [
        ("mm.input_norm.weight", W.around_one(c, 0.2)), ("mm.input_norm.bias", W.normal((c,), 0.1)),
        ("mm.1.weight", W.linear(v["mid"], 4 * c, 1.5)), ("mm.1.bias", W.normal((v["mid"],), 0.05)),
        ("mm.2.weight", W.linear(n_text, v["mid"])), ("mm.2.bias", W.normal((n_text,), 0.05)),
    ]


def mmproj_kv(gguf, cfg):
    v = cfg["v"]
    min_px, max_px = cfg["min_tokens"] * CELL * CELL, cfg["max_tokens"] * CELL * CELL
    return rc.mmproj_kv(gguf, cfg["name"] + " vision", gguf.LlamaFileType.ALL_F32, cfg["n_embd"],
                        int(math.sqrt(max_px)), PATCH, v["width"], v["ff"], v["blocks"], v["heads"]) + [
        ("add_clip_projector_type", gguf.VisionProjectorType.PADDLEOCR),
        ("add_vision_max_pixels", max_px),
        ("add_vision_min_pixels", min_px),
        ("add_vision_use_gelu", True),
        ("add_vision_attention_layernorm_eps", 1e-6),
    ]


def write_pair(gguf, cfg, out):
    vocab = rc.spm_vocab(gguf.TokenType, VOCAB_SIZE, ADDED)
    W = rc.Weights(cfg["seed"])
    rc.write_gguf(gguf, os.path.join(out, "model.gguf"), "paddleocr", llm_kv(gguf, cfg, vocab),
                  llm_tensors(cfg, W, len(vocab[0])))
    rc.write_gguf(gguf, os.path.join(out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg), mmproj_tensors(cfg, W))
    return len(vocab[0])


if __name__ == "__main__":
    rc.model_pair_cli(__doc__, CONFIGS, write_pair)
