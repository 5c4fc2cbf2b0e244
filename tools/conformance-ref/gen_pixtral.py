#!/usr/bin/python3
"""Random-weight Pixtral / Mistral Small 3.1 GGUF files in the layout llama.cpp's converter writes.

mmproj (`clip`, projector `pixtral`) as conversion/llava.py LlavaVisionModel
writes it for the HF checkpoints: patch convolution without bias, v.pre_ln
(ln_pre, RMSNorm, weight only), RMSNorm blocks (ln1 / ln2) with bias-free
q/k/v/out and a SiLU-gated FFN (ffn_gate, ffn_up, ffn_down; clip.use_silu),
no position table (2-D RoPE, theta 10000, fixed in llama.cpp), no post-LN;
v.token_embd.img_break (the LLM's [IMG_BREAK] embedding row, as the
converter extracts it); the LLaVA projector mm.1 -> GELU -> mm.2 (biases
optional: Pixtral 12B has them, Mistral Small 3.1 not). Mistral Small 3.1
adds mm.input_norm (RMSNorm) and mm.patch_merger (2x2 unfold, 4*width ->
width) with clip.vision.spatial_merge_size 2. CLIP mean / std. Only the sizes
are small (width 64, image_size 1024 kept as the converter writes it).
LLM: llama (GQA, gated FFN, untied head), rope base 1e6. Vocabulary: byte-level
BPE learned by gen_qwen3vl.learn_bpe with Mistral's control tokens first
([IMG] 10, [IMG_BREAK] 12, [IMG_END] 13 as in Tekken), pre-tokenizer tekken,
BOS <s>, EOS </s>, a Mistral Small 3.1 style ([SYSTEM_PROMPT], [INST]) template.

Ministral 3 (configs ministral3-*): arch mistral3 as conversion/mistral3.py
Ministral3Model writes it (llama's keys, then YaRN: rope.scaling.type yarn,
factor, original_context_length, yarn_beta_fast / yarn_beta_slow,
yarn_log_multiplier = mscale_all_dim, attention.temperature_scale =
llama_4_scaling_beta), Tekken's [THINK] 34 / [/THINK] 35 control tokens and a
template in the Ministral 3 Reasoning form. The sizes of the YaRN and
temperature values are chosen to matter at a hundred positions: an original
context of 32, betas 1 / 0.25 (the ramp between pairs 1 and 4), factor 4,
log multiplier 0.5 (mscale 1.065), temperature beta 0.5. The bias config adds
the optional attn_output / FFN biases and rope_freqs the mistral3 loader takes.

Usage: gen_pixtral.py --llama-cpp DIR --config NAME --out DIR [--mmproj-f16]
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
    "pixtral-f32": dict(seed=2451, name="Pixtral tiny random", n_embd=128, n_layer=3, n_head=4, n_head_kv=2,
                        n_ff=256, merger=False,
                        v=dict(width=64, ff=160, blocks=3, heads=4, image_size=1024, patch=16)),
    # widths that are multiples of 32 for Q8_0 (llama-quantize)
    "mistral3-q8src": dict(seed=2462, name="Mistral Small 3.1 tiny random (Q8_0 source)", n_embd=128, n_layer=3,
                           n_head=4, n_head_kv=2, n_ff=256, merger=True,
                           v=dict(width=64, ff=192, blocks=3, heads=4, image_size=1024, patch=16, merge=2)),
    "ministral3-f32": dict(seed=2473, name="Ministral 3 tiny random", n_embd=128, n_layer=3, n_head=4, n_head_kv=2,
                           n_ff=256, merger=True, arch="mistral3", rope_base=1e6,
                           yarn=dict(factor=4.0, orig=32, beta_fast=1.0, beta_slow=0.25, log_mul=0.5, temp=0.5),
                           v=dict(width=64, ff=160, blocks=2, heads=4, image_size=1024, patch=16, merge=2)),
    "ministral3-bias-f32": dict(seed=2474, name="Ministral 3 tiny random (biases, rope_freqs)", n_embd=128, n_layer=2,
                                n_head=4, n_head_kv=2, n_ff=256, merger=True, arch="mistral3", rope_base=1e6,
                                biases=True,
                                yarn=dict(factor=4.0, orig=24, beta_fast=1.0, beta_slow=0.25, log_mul=0.5, temp=0.5),
                                v=None),
    # arch llama with Llama 3.1's rope_freqs (llama.cpp's llama loader takes it, the graph divides the angles by it)
    "llama-ropefreqs-f32": dict(seed=2481, name="llama tiny random (rope_freqs)", n_embd=128, n_layer=2, n_head=4,
                                n_head_kv=2, n_ff=256, merger=True, rope_base=5e5, rope_freqs=True, v=None),
}

MISTRAL_CONTROL = [
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
    "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]",
]
# Tekken v13's reasoning markers (Ministral 3 / Magistral), after unused control ids
MISTRAL_THINK = {32: "[ARGS]", 33: "[CALL_ID]", 34: "[THINK]", 35: "[/THINK]"}
VOCAB_SIZE = 1024

# Ministral 3 Reasoning's template in short: v7 turns, its default system
# prompt names the [THINK] form (seer recognises the template by it)
MINISTRAL3_TEMPLATE = (
    "{%- set default_system_message = '# HOW YOU SHOULD THINK AND ANSWER ... [THINK]...[/THINK]' %}"
    "{{- bos_token }}"
    "{%- if messages[0]['role'] == 'system' %}"
    "{{- '[SYSTEM_PROMPT]' + messages[0]['content'] + '[/SYSTEM_PROMPT]' }}"
    "{%- set loop_messages = messages[1:] %}"
    "{%- else %}{%- set loop_messages = messages %}"
    "{{- '[SYSTEM_PROMPT]' + default_system_message + '[/SYSTEM_PROMPT]' }}{%- endif %}"
    "{%- for message in loop_messages %}"
    "{%- if message['role'] == 'user' %}{{- '[INST]' + message['content'] + '[/INST]' }}"
    "{%- elif message['role'] == 'assistant' %}{{- message['content'] + eos_token }}"
    "{%- endif %}"
    "{%- endfor %}"
)

CHAT_TEMPLATE = (
    "{{- bos_token }}"
    "{%- if messages[0]['role'] == 'system' %}"
    "{{- '[SYSTEM_PROMPT]' + messages[0]['content'] + '[/SYSTEM_PROMPT]' }}"
    "{%- set loop_messages = messages[1:] %}"
    "{%- else %}{%- set loop_messages = messages %}{%- endif %}"
    "{%- for message in loop_messages %}"
    "{%- if message['role'] == 'user' %}"
    "{%- if message['content'] is string %}{{- '[INST]' + message['content'] + '[/INST]' }}"
    "{%- else %}{{- '[INST]' }}{%- for block in message['content'] %}"
    "{%- if block['type'] == 'text' %}{{- block['text'] }}"
    "{%- elif block['type'] in ['image', 'image_url'] %}{{- '[IMG]' }}{%- endif %}"
    "{%- endfor %}{{- '[/INST]' }}{%- endif %}"
    "{%- elif message['role'] == 'assistant' %}{{- message['content'] + eos_token }}"
    "{%- endif %}"
    "{%- endfor %}"
)


def build_vocab(tt, think=False):
    byte_tokens, merges = q3.learn_bpe(q3.CORPUS, 600)
    toks = list(MISTRAL_CONTROL)
    if think:
        toks += [MISTRAL_THINK.get(i, f"<SPECIAL_{i}>") for i in range(len(toks), 36)]
    types = [tt.CONTROL] * len(toks)
    for t in byte_tokens + [a + b for a, b in merges]:
        if t not in toks:
            toks.append(t)
            types.append(tt.NORMAL)
    while len(toks) < VOCAB_SIZE:
        toks.append(f"<SPECIAL_{len(toks)}>")
        types.append(tt.UNUSED)
    return toks, types, [f"{a} {b}" for a, b in merges]


def llm_tensors(cfg, W, n_vocab):
    e, nh, nkv = cfg["n_embd"], cfg["n_head"], cfg["n_head_kv"]
    hd = e // nh
    bias = cfg.get("biases", False)
    out = [("token_embd.weight", W.normal((n_vocab, e), 1.0))]
    if cfg.get("rope_freqs", bias):  # llama3-style frequency factors (one tensor for every layer), as LlamaModel writes rope_freqs
        out += [("rope_freqs.weight", (1.0 + W.rng.uniform(0.0, 3.0, hd // 2)).astype(np.float32))]
    for i in range(cfg["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, nh, nkv, hd)
        if bias:
            out += [(b + "attn_output.bias", W.normal((e,), 0.1))]
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, cfg["n_ff"])
        if bias:
            out += [(b + "ffn_gate.bias", W.normal((cfg["n_ff"],), 0.2)), (b + "ffn_up.bias", W.normal((cfg["n_ff"],), 0.2)),
                    (b + "ffn_down.bias", W.normal((e,), 0.1))]
    out += [("output_norm.weight", W.around_one(e)), ("output.weight", W.linear(n_vocab, e, gain=3.0))]
    return out


def llm_kv(gguf, cfg, vocab):
    toks, types, merges = vocab
    e, nh = cfg["n_embd"], cfg["n_head"]
    kv = rc.text_model_kv(gguf, cfg["name"], cfg["n_layer"], 131072, e, cfg["n_ff"], nh, cfg["n_head_kv"])
    kv += [
        ("add_rope_freq_base", cfg.get("rope_base", 1000000000.0)),
        ("add_layer_norm_rms_eps", 1e-5),
        ("add_vocab_size", len(toks)),
        ("add_rope_dimension_count", e // nh),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
        ("add_tokenizer_model", "gpt2"),
        ("add_tokenizer_pre", "tekken"),
        ("add_token_list", toks),
        ("add_token_types", types),
        ("add_token_merges", merges),
        ("add_bos_token_id", 1),
        ("add_eos_token_id", 2),
        ("add_unk_token_id", 0),
        ("add_pad_token_id", 11),
        ("add_add_bos_token", True),
        ("add_add_eos_token", False),
        ("add_chat_template", MINISTRAL3_TEMPLATE if "yarn" in cfg else CHAT_TEMPLATE),
    ]
    y = cfg.get("yarn")
    if y:  # Ministral3Model: the YaRN rope_parameters, then mscale_all_dim and llama_4_scaling_beta
        kv[kv.index(("add_file_type", gguf.LlamaFileType.ALL_F32)):0] = [
            ("add_rope_scaling_type", gguf.RopeScalingType.YARN),
            ("add_rope_scaling_factor", y["factor"]),
            ("add_rope_scaling_orig_ctx_len", y["orig"]),
            ("add_rope_scaling_yarn_beta_fast", y["beta_fast"]),
            ("add_rope_scaling_yarn_beta_slow", y["beta_slow"]),
            ("add_rope_scaling_yarn_log_mul", y["log_mul"]),
            ("add_attn_temperature_scale", y["temp"]),
        ]
    return kv


def mmproj_tensors(cfg, W, f16, img_break):
    v = cfg["v"]
    c, ff, p, e = v["width"], v["ff"], v["patch"], cfg["n_embd"]
    mat = (lambda a: a.astype(np.float16)) if f16 else (lambda a: a)
    out = [
        ("v.patch_embd.weight", mat(W.normal((c, 3, p, p), 1.0 / np.sqrt(3 * p * p)))),
        ("v.pre_ln.weight", W.around_one(c)),
    ]
    for i in range(v["blocks"]):
        b = f"v.blk.{i}."
        out += [
            (b + "attn_q.weight", mat(W.linear(c, c, 1.5))), (b + "attn_k.weight", mat(W.linear(c, c, 1.5))),
            (b + "attn_v.weight", mat(W.linear(c, c))), (b + "attn_out.weight", mat(W.linear(c, c))),
            (b + "ln1.weight", W.around_one(c)),
            (b + "ffn_gate.weight", mat(W.linear(ff, c))), (b + "ffn_up.weight", mat(W.linear(ff, c))),
            (b + "ffn_down.weight", mat(W.linear(c, ff))),
            (b + "ln2.weight", W.around_one(c)),
        ]
    out += [("v.token_embd.img_break", img_break)]
    if cfg["merger"]:
        m = v["merge"]
        out += [("mm.input_norm.weight", W.around_one(c)),
                ("mm.patch_merger.weight", mat(W.linear(c, c * m * m, 1.5)))]
        out += [("mm.1.weight", mat(W.linear(e, c, 1.5))), ("mm.2.weight", mat(W.linear(e, e)))]
    else:
        out += [("mm.1.weight", mat(W.linear(e, c, 1.5))), ("mm.1.bias", W.normal((e,), 0.05)),
                ("mm.2.weight", mat(W.linear(e, e))), ("mm.2.bias", W.normal((e,), 0.05))]
    return out


def mmproj_kv(gguf, cfg, f16):
    v = cfg["v"]
    ftype = gguf.LlamaFileType.MOSTLY_F16 if f16 else gguf.LlamaFileType.ALL_F32
    kv = rc.mmproj_kv(gguf, cfg["name"] + " vision", ftype, cfg["n_embd"], v["image_size"], v["patch"], v["width"],
                      v["ff"], v["blocks"], v["heads"])
    kv = [k for k in kv if k[0] not in ("add_vision_image_mean", "add_vision_image_std")]
    kv += [
        ("add_vision_image_mean", [0.48145466, 0.4578275, 0.40821073]),
        ("add_vision_image_std", [0.26862954, 0.26130258, 0.27577711]),
        ("add_clip_projector_type", gguf.VisionProjectorType.PIXTRAL),
        ("add_vision_attention_layernorm_eps", 1e-5),
        ("add_vision_use_silu", True),
    ]
    if cfg["merger"]:
        kv += [("add_vision_spatial_merge_size", v["merge"])]
    kv += [("add_quantization_version", gguf.GGML_QUANT_VERSION)]
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(CONFIGS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--mmproj-f16", action="store_true", help="2-D matrices and the patch kernel in F16")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    cfg = CONFIGS[a.config]
    os.makedirs(a.out, exist_ok=True)
    vocab = build_vocab(gguf.TokenType, think="yarn" in cfg)
    W = rc.Weights(cfg["seed"])
    llm = llm_tensors(cfg, W, len(vocab[0]))
    img_break = dict(llm)["token_embd.weight"][vocab[0].index("[IMG_BREAK]")].copy()
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), cfg.get("arch", "llama"), llm_kv(gguf, cfg, vocab), llm)
    if cfg["v"]:
        rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf, cfg, a.mmproj_f16),
                      mmproj_tensors(cfg, W, a.mmproj_f16, img_break))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens)" + (f" and {a.out}/mmproj.gguf" if cfg["v"] else ""))


if __name__ == "__main__":
    main()
