#!/usr/bin/python3
"""Random-weight LightOnOCR GGUF files in the layout llama.cpp's converter writes.

mmproj (projector `lightonocr`, conversion/lighton_ocr.py LightOnOCRVisionModel on
LlavaVisionModel with use_break_tok False): the Pixtral ViT as gen_pixtral.py writes
it (patch convolution without bias, v.pre_ln RMSNorm, RMSNorm blocks with bias-free
q/k/v/out and a SiLU-gated FFN, no position table: 2-D RoPE), Mistral Small 3.1's
patch merger (mm.input_norm, mm.patch_merger, clip.vision.spatial_merge_size 2), the
LLaVA MLP mm.1 -> GELU -> mm.2, and no v.token_embd.img_break. Patch 14 as the real
model; image_size (the resize's longest edge in llama.cpp) reduced to 224.

LLM: `qwen3` as gen_qwen3vl.py's qwen3-f32 writes it (per-head q/k norms, NEOX RoPE,
tied head), its byte-level BPE with Qwen3's added tokens, and a ChatML template that
writes an image as <|image_pad|> (no <|vision_start|>).

Usage: gen_lightonocr.py --llama-cpp DIR --config NAME --out DIR
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf (F32))
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_pixtral as px  # noqa: E402  (the Pixtral tower and projector)
import gen_qwen3vl as q3  # noqa: E402  (the qwen3 LLM and its vocabulary)

CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for item in message['content'] -%}"
    "{%- if item['type'] == 'image' -%}{{- '<|image_pad|>' -}}"
    "{%- elif item['type'] == 'text' -%}{{- item['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)

CONFIGS = {
    # qwen3 4 layers, 4 query / 2 KV heads of 64, tied head; tower 64 wide, 2 blocks, FFN 160
    "lightonocr-f32": dict(
        llm=dict(q3.CONFIGS["qwen3-f32"], seed=5301, name="LightOnOCR tiny random", template=CHAT_TEMPLATE),
        seed=5302, name="LightOnOCR tiny random", n_embd=128, merger=True,
        v=dict(width=64, ff=160, blocks=2, heads=4, image_size=224, patch=14, merge=2)),
}


def mmproj_kv(gguf, cfg):
    kv = [k for k in px.mmproj_kv(gguf, cfg, False) if k[0] != "add_clip_projector_type"]
    return [("add_clip_projector_type", gguf.VisionProjectorType.LIGHTONOCR)] + kv


def write_pair(gguf, cfg, out):
    vocab = q3.build_vocab(gguf)
    q3.write_llm(gguf, cfg["llm"], os.path.join(out, "model.gguf"), vocab)
    W = rc.Weights(cfg["seed"])
    tensors = [t for t in px.mmproj_tensors(cfg, W, False, None) if t[0] != "v.token_embd.img_break"]
    rc.write_gguf(gguf, os.path.join(out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg), tensors)
    return len(vocab["tokens"])


if __name__ == "__main__":
    rc.model_pair_cli(__doc__, CONFIGS, write_pair)
