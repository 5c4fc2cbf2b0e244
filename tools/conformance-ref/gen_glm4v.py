#!/usr/bin/python3
"""Random-weight GLM-4.1V / GLM-4.6V-Flash and GLM-OCR GGUF files (arch glm4) in the layout
llama.cpp's converter writes (conversion/glm.py: Glm4Model, GlmOCRModel), and their glm4v
mmproj (conversion/qwen3vl.py: Glm4VVisionModel).

The tensors are made directly under their GGUF names and shapes, as the converter leaves
them:
  LLM: attn_q/k/v with biases (Q and K rows of the rotated part already permuted from
  GPT-J pairs to NEOX halves when the file has M-RoPE sections: a random matrix is as
  random either way, llama.cpp reads them as stored), attn_output, the sandwich norms
  (attn_norm, post_attention_norm, ffn_norm, post_ffw_norm), the fused ffn_up [n_embd ->
  2 n_ff] (gate rows first, then up) and ffn_down; rope.dimension_count = half the head
  (partial_rotary_factor 0.5); rope.dimension_sections (padded to 4) only for the vision
  models; GLM-OCR's NextN block appended as blk.{n_layer} (block_count counts it,
  nextn_predict_layers says how many) with its nextn.* tensors.
  mmproj (clip, glm4v): the Conv3D patch kernel split into v.patch_embd.weight / .weight.1
  plus v.patch_embd.bias, v.norm_embd (RMSNorm after the patch embedding), learned
  positions v.position_embd on a small square grid (absent for GLM-OCR), fused attn_qkv
  without bias (GLM-OCR: per-head attn_q_norm / attn_k_norm), RMSNorm blocks with a SwiGLU MLP (silu: clip.use_silu), v.post_ln, the
  merger: mm.patch_merger (2x2 stride-2 conv, with bias) -> mm.model.fc -> mm.post_norm
  (LayerNorm) -> GELU -> mm.gate / mm.up / mm.down (no biases).
  Vocabulary: gen_qwen3vl.py's byte-level BPE with GLM's added tokens, pre-tokenizer glm4.

Usage: gen_glm4v.py --llama-cpp DIR --config NAME --llm OUT.gguf [--mmproj OUT.gguf]
       gen_glm4v.py --list
"""

import numpy as np

import gen_qwen3vl as q3

CONFIGS = {
    # GLM-4.6V-Flash layout: 3 layers, 2 heads of 64 / 1 KV head, rotary on 32 of 64 dims
    # with sections [4,6,6,0] (GLM-4.1V's [8,12,12] at half the head), SwiGLU 192 fused,
    # untied head; vision tower of 2 blocks 64 wide (heads of 16), learned positions on a
    # 6x6 grid (image_size 84) resized bicubically to the image's grid
    "glm4v-f32": dict(
        seed=4101, name="GLM-4.6V-Flash tiny random",
        n_embd=128, n_layer=3, n_nextn=0, n_head=2, n_head_kv=1, head_dim=64, n_ff=192,
        sections=[4, 6, 6, 0], tied=False,
        vision=dict(hidden=64, heads=4, ffn=96, depth=2, grid=6, pos=True, ctx=160, dtype="f32"),
    ),
    # text only, GLM-4-0414 layout: no sections (NORM rope on GPT-J pairs of the first
    # half of each head), 3 heads of 32 / 1 KV head, tied head
    "glm4-text-f32": dict(
        seed=4111, name="GLM-4 tiny random text",
        n_embd=96, n_layer=3, n_nextn=0, n_head=3, n_head_kv=1, head_dim=32, n_ff=160,
        sections=None, tied=True,
    ),
    # GLM-OCR layout (quantized to Q8_0 by llama-quantize, widths multiples of 32):
    # 2 trunk layers + 1 NextN block, sections [4,6,6,0]; vision without learned
    # positions, with per-head q/k RMSNorm (llama.cpp PR 19677), 2 blocks
    "glmocr-q8src": dict(
        seed=4121, name="GLM-OCR tiny random (Q8_0 source)",
        n_embd=128, n_layer=2, n_nextn=1, n_head=2, n_head_kv=2, head_dim=64, n_ff=256,
        sections=[4, 6, 6, 0], tied=False,
        vision=dict(hidden=64, heads=4, ffn=128, depth=2, grid=6, pos=False, qk_norm=True, ctx=128, dtype="f32"),
    ),
}

RMS_EPS = 1e-5
ROPE_THETA = 10000.0
CONTEXT_LENGTH = 65536
PATCH = 14

# GLM-4.1V's added tokens (a subset, in their order); the converter marks the special
# ones CONTROL; <think> and </think> are plain added words
ADDED_TOKENS = [
    "<|endoftext|>", "[MASK]", "[gMASK]", "[sMASK]", "<sop>", "<eop>", "<|system|>", "<|user|>",
    "<|assistant|>", "<|observation|>", "<|begin_of_image|>", "<|end_of_image|>",
    "<|begin_of_video|>", "<|end_of_video|>", "<think>", "</think>",
]

# GLM-4.6V-Flash's template reduced to text and images (no tools)
CHAT_TEMPLATE = (
    "[gMASK]<sop>"
    "{%- for m in messages -%}"
    "{%- if m.role == 'user' -%}<|user|>\n"
    "{%- if m.content is string -%}{{ m.content }}{%- else -%}{%- for item in m.content -%}"
    "{%- if item.type == 'image' -%}<|begin_of_image|><|image|><|end_of_image|>"
    "{%- elif item.type == 'text' -%}{{ item.text }}{%- endif -%}{%- endfor -%}{%- endif -%}"
    "{{- '/nothink' if (enable_thinking is defined and not enable_thinking) else '' -}}"
    "{%- elif m.role == 'assistant' -%}<|assistant|>\n<think></think>\n{{ m.content }}"
    "{%- elif m.role == 'system' -%}<|system|>\n{{ m.content }}{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}<|assistant|>"
    "{{- '\\n<think></think>' if (enable_thinking is defined and not enable_thinking) else '' -}}{%- endif -%}"
)


def glm_vocab(gguf):
    return q3.build_vocab(gguf, added=ADDED_TOKENS, control=lambda t: t.startswith(("<|", "[", "<sop", "<eop")),
                          bos="<|endoftext|>", eos="<|endoftext|>", pad="<|endoftext|>", eot="<|user|>")


def text_tensors(c, W, n_vocab):
    e, hd, f = c["n_embd"], c["head_dim"], c["n_ff"]
    qd, kd = c["n_head"] * hd, c["n_head_kv"] * hd
    t = [("token_embd.weight", W.normal((n_vocab, e), 0.3 if c["tied"] else 1.0))]
    for il in range(c["n_layer"] + c["n_nextn"]):
        b = f"blk.{il}."
        t += [
            (b + "attn_norm.weight", W.norm(e)),
            (b + "attn_q.weight", W.linear(qd, e, 1.5)), (b + "attn_q.bias", W.normal((qd,), 0.3)),
            (b + "attn_k.weight", W.linear(kd, e, 1.5)), (b + "attn_k.bias", W.normal((kd,), 0.3)),
            (b + "attn_v.weight", W.linear(kd, e)), (b + "attn_v.bias", W.normal((kd,), 0.1)),
            (b + "attn_output.weight", W.linear(e, qd)),
            # the sandwich norms: far from 1 so that a missing one shows
            (b + "post_attention_norm.weight", W.norm(e, 0.6, 0.2)),
            (b + "ffn_norm.weight", W.norm(e)),
            # fused [gate | up] rows
            (b + "ffn_up.weight", W.linear(2 * f, e, 2.0)),
            (b + "ffn_down.weight", W.linear(e, f)),
            (b + "post_ffw_norm.weight", W.norm(e, 1.5, 0.2)),
        ]
        if il >= c["n_layer"]:   # the NextN block's own parts (speculative decoding only)
            t += [(b + "nextn.eh_proj.weight", W.linear(e, 2 * e)),
                  (b + "nextn.enorm.weight", W.norm(e)),
                  (b + "nextn.hnorm.weight", W.norm(e)),
                  (b + "nextn.shared_head_norm.weight", W.norm(e))]
    t.append(("output_norm.weight", W.norm(e)))
    if not c["tied"]:
        t.append(("output.weight", W.linear(n_vocab, e, 3.0)))
    return t


def write_llm(gguf, c, path, vocab):
    W = q3.Init(c["seed"])
    w = gguf.GGUFWriter(str(path), "glm4")
    w.add_type(gguf.GGUFType.MODEL)
    w.add_name(c["name"])
    w.add_block_count(c["n_layer"] + c["n_nextn"])
    w.add_context_length(CONTEXT_LENGTH)
    w.add_embedding_length(c["n_embd"])
    w.add_feed_forward_length(c["n_ff"])
    w.add_head_count(c["n_head"])
    w.add_head_count_kv(c["n_head_kv"])
    if c["sections"]:
        w.add_rope_dimension_sections(c["sections"])
    w.add_rope_freq_base(ROPE_THETA)
    w.add_layer_norm_rms_eps(RMS_EPS)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_rope_dimension_count(c["head_dim"] // 2)
    if c["n_nextn"]:
        w.add_nextn_predict_layers(c["n_nextn"])
    q3.add_vocab(gguf, w, vocab, "glm4", CHAT_TEMPLATE)
    for name, data in text_tensors(c, W, len(vocab["tokens"])):
        w.add_tensor(name, np.ascontiguousarray(data, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def vision_tensors(c, W):
    v = c["vision"]
    h, ff, n_text, ctx = v["hidden"], v["ffn"], c["n_embd"], v["ctx"]
    t = [
        # Conv3D [h, 3, 2, p, p] split along time (the converter's two slices)
        ("v.patch_embd.weight", W.normal((h, 3, PATCH, PATCH), 1.0 / np.sqrt(3 * PATCH * PATCH))),
        ("v.patch_embd.weight.1", W.normal((h, 3, PATCH, PATCH), 1.0 / np.sqrt(3 * PATCH * PATCH))),
        ("v.patch_embd.bias", W.normal((h,), 0.1)),
        ("v.norm_embd.weight", W.norm(h)),
    ]
    if v["pos"]:
        t.append(("v.position_embd.weight", W.normal((v["grid"] ** 2, h), 0.8)))
    for il in range(v["depth"]):
        b = f"v.blk.{il}."
        t += [
            (b + "ln1.weight", W.norm(h)),
            (b + "attn_qkv.weight", W.linear(3 * h, h, 1.5)),
            (b + "attn_out.weight", W.linear(h, h)),
        ]
        if v.get("qk_norm"):   # GLM-OCR: RMSNorm of each head of q and k, far from 1 so a missing one shows
            d = h // v["heads"]
            t += [(b + "attn_q_norm.weight", W.norm(d, 1.6, 0.3)), (b + "attn_k_norm.weight", W.norm(d, 1.6, 0.3))]
        t += [
            (b + "ln2.weight", W.norm(h)),
            (b + "ffn_gate.weight", W.linear(ff, h, 1.5)),
            (b + "ffn_up.weight", W.linear(ff, h, 1.5)),
            (b + "ffn_down.weight", W.linear(h, ff)),
        ]
    t += [
        ("v.post_ln.weight", W.norm(h)),
        # the downsample conv [n_text, h, 2, 2] (ky, kx innermost)
        ("mm.patch_merger.weight", W.normal((n_text, h, 2, 2), 1.0 / np.sqrt(4 * h))),
        ("mm.patch_merger.bias", W.normal((n_text,), 0.1)),
        ("mm.model.fc.weight", W.linear(n_text, n_text)),
        ("mm.post_norm.weight", W.norm(n_text)), ("mm.post_norm.bias", W.normal((n_text,), 0.1)),
        ("mm.gate.weight", W.linear(ctx, n_text, 1.5)),
        ("mm.up.weight", W.linear(ctx, n_text, 1.5)),
        ("mm.down.weight", W.linear(n_text, ctx)),
    ]
    return t


def write_mmproj(gguf, c, path):
    v = c["vision"]
    W = q3.Init(c["seed"] + 1000)
    w = gguf.GGUFWriter(str(path), "clip")
    w.add_type(gguf.GGUFType.MMPROJ)
    w.add_name(c["name"] + " vision")
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_clip_has_vision_encoder(True)
    w.add_vision_projection_dim(c["n_embd"])
    w.add_vision_image_size(v["grid"] * PATCH)
    w.add_vision_patch_size(PATCH)
    w.add_vision_embedding_length(v["hidden"])
    w.add_vision_feed_forward_length(v["ffn"])
    w.add_vision_block_count(v["depth"])
    w.add_vision_head_count(v["heads"])
    # GLM's processor: CLIP's mean and std
    w.add_vision_image_mean([0.48145466, 0.4578275, 0.40821073])
    w.add_vision_image_std([0.26862954, 0.26130258, 0.27577711])
    w.add_clip_projector_type(gguf.VisionProjectorType.GLM4V)
    w.add_vision_use_silu(True)
    w.add_vision_attention_layernorm_eps(RMS_EPS)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    for name, data in vision_tensors(c, W):
        w.add_tensor(name, np.ascontiguousarray(data, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    q3.cli(__doc__, CONFIGS, write_llm, write_mmproj, "gen_glm4v", glm_vocab)
