#!/usr/bin/python3
"""Random-weight MobileVLM / MobileVLM V2 GGUF files in the layout llama.cpp's converters write.

mmproj (`clip`, projector `ldp` or `ldpv2`) as the legacy LLaVA path writes it
(llava_surgery.py, then legacy-models/convert_image_encoder_to_gguf.py
--projector-type ldp|ldpv2): LLaVA-1.5's CLIP ViT-L/14-336 layout with its sizes
reduced (image_size 336 and patch 14 kept: llama.cpp's LDP graph assumes the
24x24 grid): patch convolution without bias (always F16: 4-D), v.class_embd,
577 position rows, v.pre_ln, LayerNorm blocks with q/k/v biases, quick GELU
(clip.use_gelu false), MLP under the converter's swapped names (fc1 ->
ffn_down, fc2 -> ffn_up), no post-LN, block_count = the HF layers minus the
last one (the converter drops it). Projector tensors keep the checkpoint's
names (mm.model.mlp.*, mm.model.mb_block.*, mm.model.peg.*), every 2-D or 4-D
one F16 (squeezed: a depthwise kernel [C,1,3,3] becomes [C,3,3]), 1-D F32.
  ldp   (MobileVLM, LDPBlock): mlp.1 -> GELU -> mlp.3; mb_block.1 and .2 are
        MobileNetV3 inverted residuals without expansion: block.0.0 depthwise
        3x3 conv (stride 1, then 2) + block.0.1 LayerNorm, hardswish,
        block.1 squeeze-excite (fc1 C -> C/4, ReLU, fc2, hardsigmoid),
        block.2.0 pointwise conv + block.2.1 LayerNorm; residual on block 1.
  ldpv2 (MobileVLM V2, LDPNetV2): mlp.0 -> GELU -> mlp.2, 2x2 average pool,
        peg.0 depthwise 3x3 conv with bias added to its input.
LLM: llama (MobileLLaMA: RMSNorm, SwiGLU, rope 10000, no chat template, so
front ends use the Vicuna prompt), SentencePiece-style vocabulary learned here.

Usage: gen_mobilevlm.py --llama-cpp DIR --config NAME --out DIR
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402

VOCAB_SIZE = 1024

CONFIGS = {
    "mobilevlm-ldp-f32": dict(seed=2453, proj="ldp", name="MobileVLM tiny random",
                              n_embd=128, n_layer=3, n_head=4, n_ff=352,
                              v=dict(width=64, ff=160, blocks=3, heads=4)),
    # widths that are multiples of 32 for Q8_0 (llama-quantize)
    "mobilevlm2-ldpv2-q8src": dict(seed=2464, proj="ldpv2", name="MobileVLM V2 tiny random (Q8_0 source)",
                                   n_embd=128, n_layer=3, n_head=4, n_ff=320,
                                   v=dict(width=64, ff=128, blocks=3, heads=4)),
}
IMAGE_SIZE, PATCH = 336, 14


def build_vocab(tt):
    """LLaMA's layout (refgen_common.spm_vocab)."""
    return rc.spm_vocab(tt, VOCAB_SIZE)


def llm_tensors(cfg, W, n_vocab):
    e, nh = cfg["n_embd"], cfg["n_head"]
    out = [("token_embd.weight", W.normal((n_vocab, e), 1.0))]
    for i in range(cfg["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, nh, nh, e // nh)
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
    out += [("output_norm.weight", W.around_one(e)), ("output.weight", W.linear(n_vocab, e, gain=3.0))]
    return out


def llm_kv(gguf, cfg, vocab):
    toks = vocab[0]
    e, nh = cfg["n_embd"], cfg["n_head"]
    return rc.text_model_kv(gguf, cfg["name"], cfg["n_layer"], 2048, e, cfg["n_ff"], nh, nh) + [
        ("add_rope_freq_base", 10000.0),
        ("add_layer_norm_rms_eps", 1e-6),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_vocab_size", len(toks)),
        ("add_rope_dimension_count", e // nh),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ] + rc.spm_vocab_kv(vocab)


def projector_tensors(cfg, W):
    """The checkpoint's projector under the converter's names and types."""
    c, e = cfg["v"]["width"], cfg["n_embd"]
    f16 = lambda a: a.astype(np.float16)  # noqa: E731
    dw = lambda: f16(W.normal((e, 3, 3), 1.0 / 3.0))  # noqa: E731  depthwise [C,1,3,3] squeezed
    if cfg["proj"] == "ldpv2":
        return [
            ("mm.model.mlp.0.weight", f16(W.linear(e, c, 1.5))), ("mm.model.mlp.0.bias", W.normal((e,), 0.05)),
            ("mm.model.mlp.2.weight", f16(W.linear(e, e))), ("mm.model.mlp.2.bias", W.normal((e,), 0.05)),
            ("mm.model.peg.0.weight", dw()), ("mm.model.peg.0.bias", W.normal((e,), 0.1)),
        ]
    se = e // 4
    out = [
        ("mm.model.mlp.1.weight", f16(W.linear(e, c, 1.5))), ("mm.model.mlp.1.bias", W.normal((e,), 0.05)),
        ("mm.model.mlp.3.weight", f16(W.linear(e, e))), ("mm.model.mlp.3.bias", W.normal((e,), 0.05)),
    ]
    for k in (1, 2):
        b = f"mm.model.mb_block.{k}.block."
        out += [
            (b + "0.0.weight", dw()),
            (b + "0.1.weight", W.around_one(e)), (b + "0.1.bias", W.normal((e,), 0.1)),
            (b + "1.fc1.weight", f16(W.linear(se, e, 2.0))), (b + "1.fc1.bias", W.normal((se,), 0.3)),
            (b + "1.fc2.weight", f16(W.linear(e, se, 2.0))), (b + "1.fc2.bias", W.normal((e,), 0.5)),
            (b + "2.0.weight", f16(W.linear(e, e))),
            (b + "2.1.weight", W.around_one(e)), (b + "2.1.bias", W.normal((e,), 0.1)),
        ]
    return out


def clip_tensors(cfg, W):
    """CLIP vision tower as the legacy converter writes it (F32 file: the
    patch kernel F16, everything else F32)."""
    v = cfg["v"]
    c, ff = v["width"], v["ff"]
    n_pos = 1 + (IMAGE_SIZE // PATCH) ** 2
    out = [
        ("v.class_embd", W.normal((c,), 1.0)),
        ("v.patch_embd.weight", W.normal((c, 3, PATCH, PATCH), 1.0 / np.sqrt(3 * PATCH * PATCH)).astype(np.float16)),
        ("v.position_embd.weight", W.normal((n_pos, c), 0.5)),
        ("v.pre_ln.weight", W.around_one(c)), ("v.pre_ln.bias", W.normal((c,), 0.02)),
    ]
    for i in range(v["blocks"]):
        b = f"v.blk.{i}."
        out += [
            (b + "attn_k.weight", W.linear(c, c, 1.5)), (b + "attn_k.bias", W.normal((c,), 0.05)),
            (b + "attn_v.weight", W.linear(c, c)), (b + "attn_v.bias", W.normal((c,), 0.05)),
            (b + "attn_q.weight", W.linear(c, c, 1.5)), (b + "attn_q.bias", W.normal((c,), 0.05)),
            (b + "attn_out.weight", W.linear(c, c)), (b + "attn_out.bias", W.normal((c,), 0.02)),
            (b + "ln1.weight", W.around_one(c)), (b + "ln1.bias", W.normal((c,), 0.02)),
            (b + "ffn_down.weight", W.linear(ff, c)), (b + "ffn_down.bias", W.normal((ff,), 0.02)),  # fc1
            (b + "ffn_up.weight", W.linear(c, ff)), (b + "ffn_up.bias", W.normal((c,), 0.02)),  # fc2
            (b + "ln2.weight", W.around_one(c)), (b + "ln2.bias", W.normal((c,), 0.02)),
        ]
    return out


def mmproj_kv(gguf, cfg):
    v = cfg["v"]
    return [
        ("add_bool", "clip.has_text_encoder", False),
        ("add_bool", "clip.has_vision_encoder", True),
        ("add_bool", "clip.has_llava_projector", True),
        ("add_file_type", 0),
        ("add_name", cfg["name"] + " vision"),
        ("add_description", "image encoder for LLaVA"),
        ("add_string", "clip.projector_type", cfg["proj"]),
        ("add_uint32", "clip.vision.image_size", IMAGE_SIZE),
        ("add_uint32", "clip.vision.patch_size", PATCH),
        ("add_uint32", "clip.vision.embedding_length", v["width"]),
        ("add_uint32", "clip.vision.feed_forward_length", v["ff"]),
        ("add_uint32", "clip.vision.projection_dim", 48),
        ("add_uint32", "clip.vision.attention.head_count", v["heads"]),
        ("add_float32", "clip.vision.attention.layer_norm_epsilon", 1e-5),
        ("add_uint32", "clip.vision.block_count", v["blocks"]),
        ("add_array", "clip.vision.image_mean", [0.48145466, 0.4578275, 0.40821073]),
        ("add_array", "clip.vision.image_std", [0.26862954, 0.26130258, 0.27577711]),
        ("add_bool", "clip.use_gelu", False),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(CONFIGS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--seed", type=int, help="weight seed (default: the configuration's)")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    cfg = dict(CONFIGS[a.config])
    if a.seed is not None:
        cfg["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)
    vocab = build_vocab(gguf.TokenType)
    W = rc.Weights(cfg["seed"])
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), "llama", llm_kv(gguf, cfg, vocab),
                  llm_tensors(cfg, W, len(vocab[0])))
    # the legacy converter writes the projector first, then the CLIP tower
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg),
                  projector_tensors(cfg, W) + clip_tensors(cfg, W))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
