#!/usr/bin/python3
"""Random-weight MiniCPM-V GGUF files in the layout llama.cpp's converters write.

mmproj (`clip`, projector `resampler`) as tools/mtmd/legacy-models/
minicpmv-convert-image-encoder-to-gguf.py writes it (the only converter for
this projector): the resampler's tensors first, in the checkpoint's order
(query, proj -> pos_embed_k [the 70x70 2-D sin/cos table, unused by the
graph] and proj.weight transposed, kv_proj -> kv, attn.in_proj split into
q / k / v, out_proj -> out, ln_q, ln_kv, ln_post), then the SigLIP tower
under the legacy names: fc1 -> ffn_down and fc2 -> ffn_up (llama.cpp swaps
them back: ffn_down.ne[0] == n_embd), the 4900-row position table (70x70
buckets), post_ln. The patch kernel is always F16; with --mmproj-f16 every
2-D *.weight (position table included) is F16, the rest F32. Keys:
clip.has_minicpmv_projector, clip.minicpmv_version (int32),
clip.minicpmv_query_num (uint32, 0 = the version's default), projection_dim
0, eps 1e-6, mean / std 0.5, clip.use_gelu. Only the sizes are small:
image_size 112 (slices of about 112x112 px), width 64.
LLM: qwen2 (MiniCPM-V 2.6, version 3), qwen3 (4.5, version 6) or llama (2.5,
version 2) through gen_internvl's writer, with Qwen's added tokens and
MiniCPM-V's <image>, </image>, <slice>, </slice>, <image_id>, </image_id>,
<ref>, </ref>, <box>, </box>, <quad>, </quad>, <point>, </point>, <unk>;
the Qwen2 ChatML template with its default system prompt.

Usage: gen_minicpmv.py --llama-cpp DIR --config NAME --out DIR [--mmproj-f16]
       (writes DIR/model.gguf (F32) and DIR/mmproj.gguf)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402
import gen_internvl as ivl  # noqa: E402  (LLM tensors and keys, vocabulary)

CONFIGS = {
    "minicpmv26-f32": dict(arch="qwen2", seed=2601, name="MiniCPM-V 2.6 tiny random", version=3, query_num=0,
                           n_embd=128, n_layer=2, n_head=4, n_head_kv=2, n_ff=192,
                           v=dict(width=48, ff=128, blocks=3, heads=4, image_size=112, patch=14)),
    # widths that are multiples of 32 for Q8_0 (llama-quantize)
    "minicpmv45-q8src": dict(arch="qwen3", seed=4503, name="MiniCPM-V 4.5 tiny random (Q8_0 source)", version=6,
                             query_num=16, n_embd=128, n_layer=3, n_head=4, n_head_kv=2, n_ff=256, head_dim=64,
                             v=dict(width=64, ff=192, blocks=3, heads=4, image_size=112, patch=14)),
    "minicpmv25-f32": dict(arch="llama", seed=2501, name="MiniCPM-Llama3-V 2.5 tiny random", version=2,
                           query_num=0, n_embd=128, n_layer=2, n_head=4, n_head_kv=2, n_ff=256,
                           v=dict(width=64, ff=160, blocks=2, heads=4, image_size=112, patch=14)),
}

MINICPMV_ADDED = ["<image>", "</image>", "<ref>", "</ref>", "<box>", "</box>", "<quad>", "</quad>", "<point>",
                  "</point>", "<slice>", "</slice>", "<image_id>", "</image_id>", "<unk>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
    "{{ '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}{% endif %}"
    "{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
POS_SIDE = 70  # SigLIP-NaViT's 980 px / 14 px position grid, bucketed by llama.cpp


def legacy_name(name):
    """get_tensor_name of the legacy converter (HF name -> GGUF name)."""
    for a, b in [("text_model", "t"), ("vision_model", "v"), ("encoder.layers", "blk"), ("embeddings.", ""),
                 ("_proj", ""), ("self_attn.", "attn_"), ("layer_norm", "ln"), ("layernorm", "ln"),
                 ("mlp.fc1", "ffn_down"), ("mlp.fc2", "ffn_up"), ("embedding", "embd"), ("final", "post"),
                 ("layrnorm", "ln")]:
        name = name.replace(a, b)
    return name


def sincos_2d(dim, side):
    """The converter's get_2d_sincos_pos_embed(dim, (side, side)) (MAE's)."""
    gh, gw = np.meshgrid(np.arange(side, dtype=np.float32), np.arange(side, dtype=np.float32), indexing="xy")

    def one_d(d, pos):
        omega = 1.0 / 10000 ** (np.arange(d // 2, dtype=np.float32) / (d / 2.0))
        out = np.einsum("hw,d->hwd", pos, omega)
        return np.concatenate([np.sin(out), np.cos(out)], axis=-1)

    emb = np.concatenate([one_d(dim // 2, gh), one_d(dim // 2, gw)], axis=-1)
    return emb.reshape(side * side, dim)


def projector_tensors(cfg, W):
    """HF resampler state dict (parameters before submodules), renamed as the converter does."""
    e, nq = cfg["n_embd"], cfg["query_num"] or (96 if cfg["version"] == 2 else 64)
    c = cfg["v"]["width"]
    out = [("resampler.query", W.normal((nq, e), 0.5))]
    proj = W.linear(e, e)  # used as x @ proj
    out += [("resampler.pos_embed_k", sincos_2d(e, POS_SIDE)), ("resampler.proj.weight", proj.T.copy())]
    out += [("resampler.kv.weight", W.linear(e, c, 1.5))]
    in_w, in_b = W.linear(3 * e, e, 1.5), W.normal((3 * e,), 0.05)
    for i, part in enumerate("qkv"):
        out += [(f"resampler.attn.{part}.weight", in_w[i * e:(i + 1) * e]),
                (f"resampler.attn.{part}.bias", in_b[i * e:(i + 1) * e])]
    out += [("resampler.attn.out.weight", W.linear(e, e)), ("resampler.attn.out.bias", W.normal((e,), 0.05))]
    for ln in ("q", "kv", "post"):
        out += [(f"resampler.ln_{ln}.weight", W.around_one(e, 0.2)), (f"resampler.ln_{ln}.bias", W.normal((e,), 0.05))]
    return out


def vision_tensors(cfg, W):
    v = cfg["v"]
    c, ff, p = v["width"], v["ff"], v["patch"]
    hf = [("vision_model.embeddings.patch_embedding.weight", W.normal((c, 3, p, p), 1.0 / np.sqrt(3 * p * p))),
          ("vision_model.embeddings.patch_embedding.bias", W.normal((c,), 0.02)),
          ("vision_model.embeddings.position_embedding.weight", W.normal((POS_SIDE * POS_SIDE, c), 0.5))]
    for i in range(v["blocks"]):
        b = f"vision_model.encoder.layers.{i}."
        for part in ("k", "v", "q", "out"):
            gain = 1.5 if part in ("q", "k") else 1.0
            hf += [(b + f"self_attn.{part}_proj.weight", W.linear(c, c, gain)),
                   (b + f"self_attn.{part}_proj.bias", W.normal((c,), 0.05))]
        hf += [(b + "layer_norm1.weight", W.around_one(c)), (b + "layer_norm1.bias", W.normal((c,), 0.02)),
               (b + "mlp.fc1.weight", W.linear(ff, c)), (b + "mlp.fc1.bias", W.normal((ff,), 0.02)),
               (b + "mlp.fc2.weight", W.linear(c, ff)), (b + "mlp.fc2.bias", W.normal((c,), 0.02)),
               (b + "layer_norm2.weight", W.around_one(c)), (b + "layer_norm2.bias", W.normal((c,), 0.02))]
    hf += [("vision_model.post_layernorm.weight", W.around_one(c)),
           ("vision_model.post_layernorm.bias", W.normal((c,), 0.02))]
    return [(legacy_name(n), a) for n, a in hf]


def converter_types(tensors, f16):
    """4-D kernels always F16; with f16 every 2-D *.weight F16; the rest F32."""
    out = []
    for name, a in tensors:
        if a.ndim == 4 or (f16 and name.endswith(".weight") and a.ndim == 2):
            out.append((name, a.astype(np.float16)))
        else:
            out.append((name, a.astype(np.float32)))
    return out


def mmproj_kv(cfg, f16):
    v = cfg["v"]
    return [
        ("add_bool", "clip.has_text_encoder", False),
        ("add_bool", "clip.has_vision_encoder", True),
        ("add_bool", "clip.has_minicpmv_projector", True),
        ("add_file_type", 1 if f16 else 0),
        ("add_description", "image encoder for MiniCPM-V"),
        ("add_string", "clip.projector_type", "resampler"),
        ("add_int32", "clip.minicpmv_version", cfg["version"]),
        ("add_uint32", "clip.vision.image_size", v["image_size"]),
        ("add_uint32", "clip.vision.patch_size", v["patch"]),
        ("add_uint32", "clip.vision.embedding_length", v["width"]),
        ("add_uint32", "clip.vision.feed_forward_length", v["ff"]),
        ("add_uint32", "clip.vision.projection_dim", 0),
        ("add_uint32", "clip.vision.attention.head_count", v["heads"]),
        ("add_float32", "clip.vision.attention.layer_norm_epsilon", 1e-6),
        ("add_uint32", "clip.vision.block_count", v["blocks"]),
        ("add_uint32", "clip.minicpmv_query_num", cfg["query_num"]),
        ("add_array", "clip.vision.image_mean", [0.5, 0.5, 0.5]),
        ("add_array", "clip.vision.image_std", [0.5, 0.5, 0.5]),
        ("add_bool", "clip.use_gelu", True),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(CONFIGS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--mmproj-f16", action="store_true", help="2-D weights F16 (the converter's default)")
    ap.add_argument("--seed", type=int, help="weight seed (default: the configuration's)")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    cfg = dict(CONFIGS[a.config])
    if a.seed is not None:
        cfg["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)
    vocab = ivl.build_vocab(gguf.TokenType, MINICPMV_ADDED)
    W = rc.Weights(cfg["seed"])
    arch = cfg["arch"]
    llm_cfg = dict(cfg, arch="qwen2" if arch == "llama" else arch)  # gen_internvl writes qwen2 / qwen3
    kv = [k if k[0] != "add_chat_template" else ("add_chat_template", CHAT_TEMPLATE)
          for k in ivl.llm_kv(gguf, llm_cfg, vocab)]
    tensors = ivl.llm_tensors(llm_cfg, W, len(vocab[0]))
    if arch == "llama":  # Llama 3: no q/k/v biases, RoPE base 5e5
        tensors = [t for t in tensors if not t[0].endswith(".bias")]
        kv = [k if k[0] != "add_rope_freq_base" else ("add_rope_freq_base", 500000.0) for k in kv]
        kv = [k if k[0] != "add_tokenizer_pre" else ("add_tokenizer_pre", "llama-bpe") for k in kv]
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), arch, kv, tensors)
    mm = converter_types(projector_tensors(cfg, W) + vision_tensors(cfg, W), a.mmproj_f16)
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(cfg, a.mmproj_f16), mm)
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
