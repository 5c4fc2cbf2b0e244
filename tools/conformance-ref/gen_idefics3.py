#!/usr/bin/env python3
"""Random-weight SmolVLM-Instruct (Idefics3) GGUF files in the layout
llama.cpp's converter writes, in the geometry of the 2B SmolVLM-Instruct.

mmproj (`clip`, projector `idefics3`) as conversion/smolvlm.py SmolVLMModel
writes it: SigLIP at image_size 384 with 14 px patches (a 27x27 patch grid;
the stride-14 convolution never reads the last 6 pixel rows and columns),
729-row position table, no class token, post-LN, pixel shuffle by
clip.vision.projector.scale_factor 3 (27x27 -> 9x9 = 81 tokens of 9*W
features), bias-free mm.model.fc; clip.vision.preproc_image_size 1536 (the
processor's size.longest_edge), layer-norm eps 1e-6, use_gelu. Only the
widths and depths are small.
LLM (`llama`) as the converter writes SmolVLM's text model (SmolLM2):
rope base 273768, context 16384, RMS eps 1e-5, no GQA, untied output.
Vocabulary: byte-level BPE with the `smollm` pre-tokenizer, learned here from
refgen_common.CORPUS, with SmolLM2's special tokens first and SmolVLM's added
tokens (<global-img>, <row_R_col_C>, <fake_token_around_image>, <image>,
<end_of_utterance>) last, all CONTROL as the converter marks them.

Usage: gen_idefics3.py --llama-cpp DIR --out DIR   (writes model.gguf, mmproj.gguf; F32)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402

P = dict(seed=39, n_embd=64, n_layer=4, n_head=4, n_head_kv=4, n_ff=192,
         v_width=64, v_ff=256, v_blocks=3, v_heads=4,
         image_size=384, patch=14, scale_factor=3, preproc_image_size=1536)

SMOLLM_SPECIALS = [
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<repo_name>", "<reponame>", "<file_sep>", "<filename>",
    "<gh_stars>", "<issue_start>", "<issue_comment>", "<issue_closed>", "<jupyter_start>", "<jupyter_text>",
    "<jupyter_code>", "<jupyter_output>", "<jupyter_script>", "<empty_output>",
]

# SmolVLM's chat template (tokenizer.chat_template of the checkpoints).
CHAT_TEMPLATE = (
    "<|im_start|>{% for message in messages %}{{message['role'] | capitalize}}"
    "{% if message['content'][0]['type'] == 'image' %}{{':'}}{% else %}{{': '}}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{line['text']}}"
    "{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)


def build_vocab(tt):
    """(tokens, types, merges): specials, the 256 byte symbols, learned merges
    (plus the whitespace merges every GPT-2 style vocabulary has), then
    SmolVLM's added tokens."""
    sym = rc.gpt2_byte_chars()

    def to_symbols(text):
        return [sym[b] for b in text.encode("utf-8")]

    counts = rc.word_counts(rc.CORPUS, " ", to_symbols)
    merges = [(sym[0x20], sym[0x20]), (sym[0x0A], sym[0x0A])] + rc.learn_merges(counts, 400)
    toks = list(SMOLLM_SPECIALS) + [sym[b] for b in range(256)]
    seen = set(toks)
    kept = []
    for a, b in merges:
        if a + b not in seen:
            seen.add(a + b)
            toks.append(a + b)
            kept.append(f"{a} {b}")
    types = [tt.CONTROL] * len(SMOLLM_SPECIALS) + [tt.NORMAL] * (len(toks) - len(SMOLLM_SPECIALS))
    added = ["<global-img>"] + [f"<row_{r}_col_{c}>" for r in range(1, 7) for c in range(1, 7)] + \
        ["<fake_token_around_image>", "<image>"] + [f"<|reserved_special_token_{i}|>" for i in range(4)] + \
        ["<end_of_utterance>"]
    toks += added
    types += [tt.CONTROL] * len(added)
    return toks, types, kept


def llm_tensors(n_vocab, W):
    e, ff, hd = P["n_embd"], P["n_ff"], P["n_embd"] // P["n_head"]
    out = [("token_embd.weight", W.normal((n_vocab, e), 1.0))]
    for i in range(P["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, P["n_head"], P["n_head_kv"], hd)
        out += [(b + "ffn_norm.weight", W.around_one(e))]
        out += rc.glu_ffn_tensors(W, b, e, ff)
    out += [("output_norm.weight", W.around_one(e)), ("output.weight", W.linear(n_vocab, e, gain=3.0))]
    return out


def llm_kv(gguf, vocab):
    toks, types, merges = vocab
    hd = P["n_embd"] // P["n_head"]
    return rc.text_model_kv(gguf, "SmolVLM Instruct (random weights, tiny)", P["n_layer"], 16384, P["n_embd"], P["n_ff"],
                            P["n_head"], P["n_head_kv"]) + [
        ("add_rope_freq_base", 273768.0),
        ("add_layer_norm_rms_eps", 1e-5),
        ("add_key_length", hd),
        ("add_value_length", hd),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_vocab_size", len(toks)),
        ("add_rope_dimension_count", hd),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
        ("add_tokenizer_model", "gpt2"),
        ("add_tokenizer_pre", "smollm"),
        ("add_token_list", toks),
        ("add_token_types", types),
        ("add_token_merges", merges),
        ("add_bos_token_id", 1),
        ("add_eos_token_id", toks.index("<end_of_utterance>")),
        ("add_unk_token_id", 0),
        ("add_pad_token_id", 2),
        ("add_add_bos_token", False),
        ("add_add_space_prefix", False),
        ("add_chat_template", CHAT_TEMPLATE),
    ]


def mmproj_tensors(W):
    n_pos = (P["image_size"] // P["patch"]) ** 2
    return rc.siglip_tensors(W, P["v_width"], P["v_ff"], P["v_blocks"], P["patch"], n_pos) + [
        ("mm.model.fc.weight", W.linear(P["n_embd"], P["v_width"] * P["scale_factor"] ** 2)),
    ]


def mmproj_kv(gguf):
    return rc.mmproj_kv(gguf, "SmolVLM Instruct (random weights, tiny)", gguf.LlamaFileType.ALL_F32,
                        P["n_embd"], P["image_size"], P["patch"], P["v_width"], P["v_ff"], P["v_blocks"], P["v_heads"]) + [
        ("add_clip_projector_type", gguf.VisionProjectorType.IDEFICS3),
        ("add_vision_attention_layernorm_eps", 1e-6),
        ("add_vision_projector_scale_factor", P["scale_factor"]),
        ("add_vision_use_gelu", True),
        ("add_vision_preproc_image_size", P["preproc_image_size"]),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--seed", type=int, default=P["seed"], help="weight seed")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    os.makedirs(a.out, exist_ok=True)
    vocab = build_vocab(gguf.TokenType)
    W = rc.Weights(a.seed)
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), "llama", llm_kv(gguf, vocab), llm_tensors(len(vocab[0]), W))
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip", mmproj_kv(gguf), mmproj_tensors(W))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens, {len(vocab[2])} merges) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
