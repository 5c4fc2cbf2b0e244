#!/usr/bin/python3
"""Random-weight Qwen3-VL (and plain Qwen3) GGUF files in the layout llama.cpp's converter writes.

The tensors are first made under their Hugging Face names and shapes
(Qwen3VLForConditionalGeneration / Qwen3VLMoeForConditionalGeneration), then
renamed and reshaped the way llama.cpp's convert_hf_to_gguf.py does it
(conversion/qwen3vl.py, conversion/qwen.py, conversion/base.py), using gguf-py
from the llama.cpp checkout given with --llama-cpp for the name map and the
writer. Only the sizes are small.

  LLM (arch qwen3vl / qwen3vlmoe): Qwen3 attention (no QKV bias, per-head q/k
  RMSNorm), q width n_head*head_dim != n_embd, GQA, interleaved M-RoPE with
  rope.dimension_sections padded to 4, n_deepstack_layers; MoE: router
  ffn_gate_inp and 3-D expert tensors split/permuted from HF's packed
  gate_up_proj / down_proj. Tied or untied output head.
  mmproj (clip, qwen3vl_merger): Conv3D patch kernel split into
  v.patch_embd.weight / .weight.1 plus v.patch_embd.bias, learned position
  embeddings on a small grid, fused attn_qkv, LayerNorm ViT with GELU MLP,
  merger norm (v.post_ln) + mm.0 / mm.2, and v.deepstack.L.{norm,fc1,fc2} for
  the absolute ViT layers L of deepstack_visual_indexes.
  Vocabulary: a byte-level BPE learned here from the English text below
  (256 byte tokens, merges, Qwen's 26 added tokens, [PAD] fill), pre-tokenizer
  qwen2, ChatML chat template.

Usage: gen_qwen3vl.py --llama-cpp DIR --config NAME --llm OUT.gguf [--mmproj OUT.gguf]
       gen_qwen3vl.py --list
"""

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from refgen_common import gpt2_byte_chars

CONFIGS = {
    # dense, tied head, head_dim 64 with sections [12,10,10]: 32 rotation pairs, the
    # interleaved rule leaves pair 31 to the 4th (always 0) position, as [24,20,20] does
    # for head_dim 128 in the real models; 3 deepstack layers from ViT blocks 1, 3, 4
    "qwen3vl-f32": dict(
        arch="qwen3vl", seed=3112, name="Qwen3-VL tiny random",
        n_embd=128, n_layer=4, n_head=4, n_head_kv=2, head_dim=64, n_ff=192,
        mrope_section=[12, 10, 10], tied=True, ffn_gain=2.0,
        vision=dict(hidden=64, heads=4, ffn=256, depth=6, deepstack=[1, 3, 4], grid=8, dtype="f32"),
    ),
    # dense, untied, widths that are multiples of 256 so llama-quantize's Q4_K_M uses
    # real K-quant blocks; 2 deepstack layers (ViT blocks 0 and 2); F16 mmproj
    "qwen3vl-q4src": dict(
        arch="qwen3vl", seed=3134, name="Qwen3-VL tiny random (Q4_K_M source)",
        n_embd=256, n_layer=4, n_head=4, n_head_kv=2, head_dim=64, n_ff=768,
        mrope_section=[12, 10, 10], tied=False,
        vision=dict(hidden=64, heads=4, ffn=256, depth=4, deepstack=[0, 2], grid=8, dtype="f16"),
    ),
    # MoE: 16 experts, 4 used, expert width 32, head_dim 32 with sections [6,5,5];
    # 2 deepstack layers (ViT blocks 1 and 3)
    "qwen3vlmoe-f32": dict(
        arch="qwen3vlmoe", seed=3124, name="Qwen3-VL-MoE tiny random",
        n_embd=128, n_layer=3, n_head=4, n_head_kv=2, head_dim=32, n_ff=256,
        n_expert=16, n_expert_used=4, n_ff_exp=32,
        mrope_section=[6, 5, 5], tied=False, ffn_gain=2.0,
        vision=dict(hidden=64, heads=4, ffn=256, depth=5, deepstack=[1, 3], grid=8, dtype="f32"),
    ),
    # the plain text archs Qwen3-VL's LLMs are built on (Qwen3ForCausalLM, Qwen3MoeForCausalLM):
    # ordinary NEOX RoPE with base 1e6, no DeepStack; the MoE experts are stored one tensor
    # per expert in HF and stacked by the converter
    "qwen3-f32": dict(
        arch="qwen3", seed=3142, name="Qwen3 tiny random",
        n_embd=128, n_layer=4, n_head=4, n_head_kv=2, head_dim=64, n_ff=384, tied=True, ffn_gain=2.0,
    ),
    "qwen3moe-f32": dict(
        arch="qwen3moe", seed=3154, name="Qwen3-MoE tiny random",
        n_embd=128, n_layer=3, n_head=4, n_head_kv=2, head_dim=32, n_ff=256,
        n_expert=16, n_expert_used=4, n_ff_exp=64, tied=False, ffn_gain=2.0,
    ),
    # Qwen3-MoE with every matrix row a multiple of 256 (n_embd 256, expert FFN 256), so
    # llama-quantize gives the routed experts real i-quant blocks (make_iquant_cases.sh)
    "qwen3moe-iqsrc": dict(
        arch="qwen3moe", seed=3164, name="Qwen3-MoE tiny random (i-quant source)",
        n_embd=256, n_layer=3, n_head=4, n_head_kv=2, head_dim=64, n_ff=768,
        n_expert=16, n_expert_used=4, n_ff_exp=256, tied=False, ffn_gain=2.0,
    ),
}

VOCAB_SIZE = 1024
N_MERGES = 700
RMS_EPS = 1e-6
# Qwen3-VL's text config / Qwen3's config
ROPE_THETA = {"qwen3vl": 5000000.0, "qwen3vlmoe": 5000000.0, "qwen3": 1000000.0, "qwen3moe": 1000000.0}
CONTEXT_LENGTH = {"qwen3vl": 262144, "qwen3vlmoe": 262144, "qwen3": 40960, "qwen3moe": 40960}

# Qwen3's added tokens, in their order; the six without <|...|> are not special
# (the converter writes them as USER_DEFINED, the others as CONTROL)
ADDED_TOKENS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>",
    "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
    "<|repo_name|>", "<|file_sep|>", "<tool_response>", "</tool_response>", "<think>", "</think>",
]

CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{{- '<|im_start|>' + message['role'] + '\\n' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for item in message['content'] -%}"
    "{%- if item['type'] == 'image' or 'image' in item -%}{{- '<|vision_start|><|image_pad|><|vision_end|>' -}}"
    "{%- elif item['type'] == 'text' -%}{{- item['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n' -}}{%- endif -%}"
)

# The BPE merges are learned from this text (written for this generator).
CORPUS = """
The picture shows a small red house at the edge of a green field. Behind the house there is a tall tree
with dark leaves, and the sky above it is a clear, pale blue. A narrow path of grey stones runs from the
door to a wooden gate. Two white clouds float over the hills on the right side of the image.

In the second picture we see a busy street in the evening. The shops are still open and their windows are
bright yellow. People walk along the pavement, some of them carrying bags, others holding umbrellas because
it has just started to rain. A blue bus waits at the corner while a cyclist passes it on the left.

What colour is the circle? The circle in the middle of the image is orange, and it is larger than the
square next to it. There are three triangles below the circle: one is purple, one is green and one is
black. The background is a soft gradient that goes from light grey at the top to dark grey at the bottom.

Describe the image in detail. The image contains a photograph of a kitchen table. On the table there are
four cups, a plate with bread, a glass bottle of milk and a bowl of fresh fruit: apples, pears, bananas
and a few grapes. Sunlight comes in through the window and draws long shadows across the wooden surface.

Counting objects is a common question. How many birds are sitting on the wire? There are seven birds on
the wire, and one more bird is flying towards them from the left. The wire stretches between two poles,
and the poles stand on a hill covered with short, dry grass. In the distance you can see the sea.

A model that looks at pictures has to read the pixels, turn them into patches, and compare the patches
with each other before it writes an answer. It should say what it sees and nothing more. When it is not
sure, it should tell the user that the picture is not clear enough to answer the question.

The chart on the page has a title at the top, numbers on the left axis and the names of the months along
the bottom. The line rises from January to June, falls in July and August, and rises again at the end of
the year. The highest value is reached in December, when it is almost twice the value of January.

She opened the old book and found a map between its pages. The map showed an island with a mountain in
the north, a lake in the centre and a small village near the southern beach. Someone had drawn a red
cross next to the lake and written a short note in the corner: the key is under the third stone.

Weather report for tomorrow: cloudy in the morning with light rain in the north, then sunny spells in the
afternoon. Temperatures between twelve and eighteen degrees, a light wind from the west. At night the sky
will clear and it will be colder, around five degrees, with some fog in the valleys near the rivers.

Questions and answers: Is there a dog in the image? Yes, there is a brown dog lying on the carpet next to
the sofa. Is the door open? No, the door is closed, but the window beside it is open. Which object is the
largest? The sofa is the largest object, followed by the table and the lamp in the corner of the room.
"""


# ---------------------------------------------------------------------------------------------
# vocabulary

def pretokenize(text):
    # the qwen2 pre-tokenizer's pattern for ASCII text: contractions, letters with one
    # leading non-letter, single digits, punctuation runs, newlines, spaces
    pat = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
    return pat.findall(text)


def learn_bpe(text, n_merges):
    byte_char = gpt2_byte_chars()
    # GPT-2's order of the byte tokens: printable bytes (which stand for themselves) first
    cs = sorted(byte_char.values())
    words = Counter("".join(byte_char[b] for b in w.encode("utf-8")) for w in pretokenize(text))
    splits = {w: list(w) for w in words}
    merges = []
    for _ in range(n_merges):
        pairs = Counter()
        for w, n in words.items():
            s = splits[w]
            for a, b in zip(s, s[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        best = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))[0]   # most frequent, then lexicographic
        merges.append(best)
        for w in words:
            s = splits[w]
            i, out = 0, []
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == best:
                    out.append(s[i] + s[i + 1])
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            splits[w] = out
    return cs, merges


def build_vocab(gguf, added=ADDED_TOKENS, control=lambda t: t.startswith("<|"), bos="<|endoftext|>",
                eos="<|im_end|>", pad="<|endoftext|>", eot=None):
    """The learned byte-level BPE, then the family's added tokens (control ones as
    CONTROL, the others USER_DEFINED), [PAD] fill up to VOCAB_SIZE."""
    byte_tokens, merges = learn_bpe(CORPUS, N_MERGES)
    tokens = list(byte_tokens)
    for a, b in merges:
        if a + b not in tokens:   # two merges can spell the same token
            tokens.append(a + b)
    types = [gguf.TokenType.NORMAL] * len(tokens)
    first_added = len(tokens)
    for t in added:
        tokens.append(t)
        types.append(gguf.TokenType.CONTROL if control(t) else gguf.TokenType.USER_DEFINED)
    while len(tokens) < VOCAB_SIZE:
        tokens.append(f"[PAD{len(tokens)}]")
        types.append(gguf.TokenType.UNUSED)
    ids = {t: i for i, t in enumerate(tokens)}
    return dict(tokens=tokens, types=types, merges=[f"{a} {b}" for a, b in merges],
                bos=ids[bos], eos=ids[eos], pad=ids[pad], eot=ids[eot] if eot else None,
                first_added=first_added)


# ---------------------------------------------------------------------------------------------
# weights under their Hugging Face names (shapes as in the checkpoints: Linear is [out, in])

class Init:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def normal(self, shape, std, mean=0.0):
        return (mean + std * self.rng.standard_normal(shape)).astype(np.float32)

    def linear(self, n_out, n_in, gain=1.0):
        return self.normal((n_out, n_in), gain / np.sqrt(n_in))

    def norm(self, n, mean=1.0, std=0.1):
        return self.normal((n,), std, mean)


def hf_text_tensors(cfg, init, n_vocab):
    e, hd = cfg["n_embd"], cfg["head_dim"]
    t = {}
    # tied heads read the embedding table as the output matrix: keep its logits O(3)
    t["model.embed_tokens.weight"] = init.normal((n_vocab, e), cfg.get("emb_std", 0.3 if cfg["tied"] else 1.0))
    g_attn, g_ffn = cfg.get("attn_gain", 1.0), cfg.get("ffn_gain", 1.0)
    for il in range(cfg["n_layer"]):
        p = f"model.layers.{il}."
        t[p + "input_layernorm.weight"] = init.norm(e)
        t[p + "self_attn.q_proj.weight"] = init.linear(cfg["n_head"] * hd, e)
        t[p + "self_attn.k_proj.weight"] = init.linear(cfg["n_head_kv"] * hd, e)
        t[p + "self_attn.v_proj.weight"] = init.linear(cfg["n_head_kv"] * hd, e)
        t[p + "self_attn.o_proj.weight"] = init.linear(e, cfg["n_head"] * hd, g_attn)
        # q/k norms above 1 sharpen attention, so positions (M-RoPE) change the result visibly
        t[p + "self_attn.q_norm.weight"] = init.norm(hd, 1.6, 0.2)
        t[p + "self_attn.k_norm.weight"] = init.norm(hd, 1.6, 0.2)
        t[p + "post_attention_layernorm.weight"] = init.norm(e)
        if cfg["arch"] == "qwen3moe":
            nx, f = cfg["n_expert"], cfg["n_ff_exp"]
            t[p + "mlp.gate.weight"] = init.linear(nx, e, 3.0)
            for x in range(nx):
                t[p + f"mlp.experts.{x}.gate_proj.weight"] = init.linear(f, e, g_ffn)
                t[p + f"mlp.experts.{x}.up_proj.weight"] = init.linear(f, e, g_ffn)
                t[p + f"mlp.experts.{x}.down_proj.weight"] = init.linear(e, f)
        elif cfg["arch"] == "qwen3vlmoe":
            nx, f = cfg["n_expert"], cfg["n_ff_exp"]
            # a router with large logits, so the top-k choice and its weights matter
            t[p + "mlp.gate.weight"] = init.linear(nx, e, 3.0)
            # Qwen3-VL-MoE packs the experts transposed: gate_up_proj [n_expert, n_embd, 2*n_ff],
            # down_proj [n_expert, n_ff, n_embd]
            t[p + "mlp.experts.gate_up_proj"] = init.normal((nx, e, 2 * f), g_ffn / np.sqrt(e))
            t[p + "mlp.experts.down_proj"] = init.normal((nx, f, e), 1.0 / np.sqrt(f))
        else:
            t[p + "mlp.gate_proj.weight"] = init.linear(cfg["n_ff"], e, g_ffn)
            t[p + "mlp.up_proj.weight"] = init.linear(cfg["n_ff"], e, g_ffn)
            t[p + "mlp.down_proj.weight"] = init.linear(e, cfg["n_ff"])
    t["model.norm.weight"] = init.norm(e)
    if not cfg["tied"]:
        t["lm_head.weight"] = init.linear(n_vocab, e, 3.0)
    return t


def hf_vision_tensors(cfg, init):
    v = cfg["vision"]
    h, e_text = v["hidden"], cfg["n_embd"]
    m = h * 4   # 2x2 spatial merge
    t = {}
    t["visual.patch_embed.proj.weight"] = init.normal((h, 3, 2, 16, 16), 1.0 / np.sqrt(3 * 16 * 16))
    t["visual.patch_embed.proj.bias"] = init.normal((h,), 0.1)
    t["visual.pos_embed.weight"] = init.normal((v["grid"] ** 2, h), 0.5)
    for il in range(v["depth"]):
        p = f"visual.blocks.{il}."
        t[p + "norm1.weight"], t[p + "norm1.bias"] = init.norm(h), init.normal((h,), 0.1)
        t[p + "attn.qkv.weight"], t[p + "attn.qkv.bias"] = init.linear(3 * h, h, 1.5), init.normal((3 * h,), 0.1)
        t[p + "attn.proj.weight"], t[p + "attn.proj.bias"] = init.linear(h, h), init.normal((h,), 0.05)
        t[p + "norm2.weight"], t[p + "norm2.bias"] = init.norm(h), init.normal((h,), 0.1)
        t[p + "mlp.linear_fc1.weight"], t[p + "mlp.linear_fc1.bias"] = init.linear(v["ffn"], h), init.normal((v["ffn"],), 0.1)
        t[p + "mlp.linear_fc2.weight"], t[p + "mlp.linear_fc2.bias"] = init.linear(h, v["ffn"]), init.normal((h,), 0.05)
    # the main merger normalizes each patch (hidden), the deepstack mergers the merged 4*hidden
    t["visual.merger.norm.weight"], t["visual.merger.norm.bias"] = init.norm(h), init.normal((h,), 0.1)
    t["visual.merger.linear_fc1.weight"], t["visual.merger.linear_fc1.bias"] = init.linear(m, m), init.normal((m,), 0.1)
    t["visual.merger.linear_fc2.weight"], t["visual.merger.linear_fc2.bias"] = init.linear(e_text, m), init.normal((e_text,), 0.1)
    for j, _ in enumerate(v["deepstack"]):
        p = f"visual.deepstack_merger_list.{j}."
        t[p + "norm.weight"], t[p + "norm.bias"] = init.norm(m), init.normal((m,), 0.1)
        t[p + "linear_fc1.weight"], t[p + "linear_fc1.bias"] = init.linear(m, m), init.normal((m,), 0.1)
        t[p + "linear_fc2.weight"], t[p + "linear_fc2.bias"] = init.linear(e_text, m, 0.7), init.normal((e_text,), 0.05)
    return t


# ---------------------------------------------------------------------------------------------
# conversion, as convert_hf_to_gguf.py does it for these classes

def store_type(gguf, gguf_name, n_dims, ftype_f16):
    """The converter's choice of tensor type (conversion/base.py prepare_tensors +
    MmprojModel.tensor_force_quant) for an F32 or F16 output file."""
    if ".patch_embd.weight" in gguf_name:
        return np.float16 if ftype_f16 else np.float32
    if n_dims <= 1 or gguf_name.endswith("_norm.weight"):
        return np.float32
    forced_f32 = ("ffn_gate_inp.", "position_embd.")
    if any(k in gguf_name for k in forced_f32) or not gguf_name.endswith(".weight"):
        return np.float32
    return np.float16 if ftype_f16 else np.float32


def stack_experts(cfg, hf):
    """Qwen2MoeModel.modify_tensors: the per-expert matrices of a layer become one
    [n_expert, rows, cols] tensor named model.layers.N.mlp.experts.W.weight."""
    out = {}
    for name, data in hf.items():
        m = re.match(r"(model\.layers\.\d+\.mlp\.experts)\.(\d+)\.(\w+)\.weight$", name)
        if not m:
            out[name] = data
        elif m.group(2) == "0":
            parts = [hf[f"{m.group(1)}.{x}.{m.group(3)}.weight"] for x in range(cfg["n_expert"])]
            out[f"{m.group(1)}.{m.group(3)}.weight"] = np.stack(parts, axis=0)
    return out


def convert_text(gguf, cfg, hf):
    arch = {"qwen3vl": gguf.MODEL_ARCH.QWEN3VL, "qwen3vlmoe": gguf.MODEL_ARCH.QWEN3VLMOE,
            "qwen3": gguf.MODEL_ARCH.QWEN3, "qwen3moe": gguf.MODEL_ARCH.QWEN3MOE}[cfg["arch"]]
    tmap = gguf.get_tensor_name_map(arch, cfg["n_layer"])
    if cfg["arch"] == "qwen3moe":
        hf = stack_experts(cfg, hf)
    out = []
    for name, data in hf.items():
        if name.endswith("mlp.experts.down_proj"):
            pairs = [(name + ".weight", data.transpose(0, 2, 1))]
        elif name.endswith("mlp.experts.gate_up_proj"):
            f = data.shape[-1] // 2
            base = name.rsplit(".", 1)[0]
            pairs = [(base + ".gate_proj.weight", data[..., :f].transpose(0, 2, 1)),
                     (base + ".up_proj.weight", data[..., f:].transpose(0, 2, 1))]
        else:
            pairs = [(name, data)]
        for n, d in pairs:
            new = tmap.get_name(n, try_suffixes=(".weight", ".bias"))
            if new is None:
                sys.exit(f"gen_qwen3vl: no GGUF name for {n}")
            out.append((new, np.ascontiguousarray(d)))
    return out


def convert_vision(gguf, cfg, hf):
    v = cfg["vision"]
    tmap = gguf.get_tensor_name_map(gguf.MODEL_ARCH.MMPROJ, v["depth"])
    names = gguf.TENSOR_NAMES
    out = []
    for name, data in hf.items():
        if name == "visual.patch_embed.proj.weight":
            base = names[gguf.MODEL_TENSOR.V_ENC_EMBD_PATCH]
            out += [(base + ".weight", data[:, :, 0]), (base + ".weight.1", data[:, :, 1])]
            continue
        if name == "visual.patch_embed.proj.bias":
            out.append((names[gguf.MODEL_TENSOR.V_ENC_EMBD_PATCH] + ".bias", data))
            continue
        if name.startswith("visual.deepstack_merger_list."):
            j, rest = name.split(".", 3)[2:]
            layer = v["deepstack"][int(j)]   # absolute ViT block index
            kind, suffix = rest.split(".", 1)
            tt = {"norm": gguf.MODEL_TENSOR.V_DS_NORM, "linear_fc1": gguf.MODEL_TENSOR.V_DS_FC1,
                  "linear_fc2": gguf.MODEL_TENSOR.V_DS_FC2}[kind]
            out.append((names[tt].format(bid=layer) + "." + suffix, data))
            continue
        if name.startswith("visual.merger."):
            part, suffix = name.split(".", 2)[2].split(".", 1)
            if part == "norm":
                out.append((names[gguf.MODEL_TENSOR.V_POST_NORM] + "." + suffix, data))
            else:
                idx = {"linear_fc1": 0, "linear_fc2": 2}[part]
                out.append((names[gguf.MODEL_TENSOR.V_MMPROJ].format(bid=idx) + "." + suffix, data))
            continue
        new = tmap.get_name(name, try_suffixes=(".weight", ".bias"))
        if new is None:
            sys.exit(f"gen_qwen3vl: no GGUF name for {name}")
        out.append((new, data))
    return [(n, np.ascontiguousarray(d)) for n, d in out]


def add_vocab(gguf, w, vocab, pre, template=CHAT_TEMPLATE):
    """The tokenizer keys (byte-level BPE, pre-tokenizer `pre`), the chat template
    (ChatML unless given) and the quantization version, in the converter's order."""
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(vocab["tokens"])
    w.add_token_types(vocab["types"])
    w.add_token_merges(vocab["merges"])
    w.add_eos_token_id(vocab["eos"])
    w.add_pad_token_id(vocab["pad"])
    w.add_bos_token_id(vocab["bos"])
    if vocab.get("eot") is not None:
        w.add_eot_token_id(vocab["eot"])
    w.add_add_bos_token(False)
    w.add_chat_template(template)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)


def write_llm(gguf, cfg, path, vocab):
    init = Init(cfg["seed"])
    arch_name = cfg["arch"]
    w = gguf.GGUFWriter(str(path), arch_name)
    w.add_type(gguf.GGUFType.MODEL)
    w.add_name(cfg["name"])
    w.add_block_count(cfg["n_layer"])
    w.add_context_length(CONTEXT_LENGTH[arch_name])
    w.add_embedding_length(cfg["n_embd"])
    w.add_feed_forward_length(cfg["n_ff"])
    w.add_head_count(cfg["n_head"])
    w.add_head_count_kv(cfg["n_head_kv"])
    vl = "vision" in cfg
    if vl:
        w.add_rope_dimension_sections((cfg["mrope_section"] + [0, 0, 0, 0])[:4])   # padded to 4 as the converter does
    w.add_rope_freq_base(ROPE_THETA[arch_name])
    w.add_layer_norm_rms_eps(RMS_EPS)
    moe = "n_expert" in cfg
    if moe:
        w.add_expert_count(cfg["n_expert"])
        w.add_expert_used_count(cfg["n_expert_used"])
    w.add_key_length(cfg["head_dim"])
    w.add_value_length(cfg["head_dim"])
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    if moe:
        w.add_expert_feed_forward_length(cfg["n_ff_exp"])
    if vl:
        w.add_num_deepstack_layers(len(cfg["vision"]["deepstack"]))
    add_vocab(gguf, w, vocab, "qwen2", cfg.get("template", CHAT_TEMPLATE))
    for name, data in convert_text(gguf, cfg, hf_text_tensors(cfg, init, len(vocab["tokens"]))):
        w.add_tensor(name, data.astype(np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def write_mmproj(gguf, cfg, path):
    v = cfg["vision"]
    init = Init(cfg["seed"] + 1000)
    f16 = v["dtype"] == "f16"
    w = gguf.GGUFWriter(str(path), "clip")
    w.add_type(gguf.GGUFType.MMPROJ)
    w.add_name(cfg["name"] + " vision")
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if f16 else gguf.LlamaFileType.ALL_F32)
    w.add_clip_has_vision_encoder(True)
    w.add_vision_projection_dim(cfg["n_embd"])
    w.add_vision_image_size(v["grid"] * 16)   # the converter's sqrt(num_position_embeddings) * patch_size
    w.add_vision_patch_size(16)
    w.add_vision_embedding_length(v["hidden"])
    w.add_vision_feed_forward_length(v["ffn"])
    w.add_vision_block_count(v["depth"])
    w.add_vision_head_count(v["heads"])
    w.add_vision_image_mean([0.5, 0.5, 0.5])
    w.add_vision_image_std([0.5, 0.5, 0.5])
    w.add_clip_projector_type(gguf.VisionProjectorType.QWEN3VL)
    w.add_vision_use_gelu(True)
    w.add_vision_spatial_merge_size(2)
    w.add_vision_attention_layernorm_eps(RMS_EPS)   # the converter takes the text model's rms_norm_eps
    w.add_vision_is_deepstack_layers([i in v["deepstack"] for i in range(v["depth"])])
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    for name, data in convert_vision(gguf, cfg, hf_vision_tensors(cfg, init)):
        w.add_tensor(name, data.astype(store_type(gguf, name, data.ndim, f16)))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def cli(doc, configs, write_llm, write_mmproj, prog, vocab=build_vocab):
    """The generators' command line: --config NAME --llm/--mmproj OUT, or --list."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llama-cpp", help="llama.cpp checkout (its gguf-py is used)")
    ap.add_argument("--config", choices=sorted(configs))
    ap.add_argument("--llm", help="output LLM GGUF (F32)")
    ap.add_argument("--mmproj", help="output mmproj GGUF")
    ap.add_argument("--list", action="store_true", help="print the configurations")
    a = ap.parse_args()
    if a.list:
        for k, c in configs.items():
            print(k, c)
        return
    if not (a.llama_cpp and a.config and (a.llm or a.mmproj)):
        ap.error("need --llama-cpp, --config and --llm and/or --mmproj")
    sys.path.insert(0, str(Path(a.llama_cpp) / "gguf-py"))
    import gguf
    cfg = configs[a.config]
    if a.llm:
        write_llm(gguf, cfg, Path(a.llm), vocab(gguf))
    if a.mmproj:
        if "vision" not in cfg:
            sys.exit(f"{prog}: {a.config} is a text-only configuration")
        write_mmproj(gguf, cfg, Path(a.mmproj))


if __name__ == "__main__":
    cli(__doc__, CONFIGS, write_llm, write_mmproj, "gen_qwen3vl")
