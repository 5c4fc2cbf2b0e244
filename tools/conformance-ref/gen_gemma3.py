#!/usr/bin/env python3
"""Random-weight Gemma 3 GGUF files in the layout llama.cpp's converter writes.

LLM (`general.architecture` = gemma3) as conversion/gemma.py Gemma3Model
writes it from a Gemma3ForConditionalGeneration checkpoint, and the mmproj
(`clip`, projector `gemma3`) as Gemma3VisionModel writes it. Only the sizes
are small; the metadata keys, tensor names, shapes, transposes and tensor
types are the converter's:
  - every `*norm.weight` of the LLM holds Gemma's (1 + w) (norm_shift), so the
    random values sit around 1; mm.soft_emb_norm.weight likewise;
  - key_length = value_length = head_dim, which differs from n_embd / n_head;
  - rope.freq_base (global layers) 1e6, rope.freq_base_swa 10000 (written from
    the config's local base), rope.scaling linear / 8 (global layers only in
    llama.cpp); sliding_window written, sliding_window_pattern not written
    (llama.cpp's default period 6: layers 5, 11, ... are global);
  - no output.weight: the head is tied to token_embd;
  - mm.input_projection.weight is the raw [n_v, n_text] parameter (ggml ne
    [n_text, n_v]) and always F16; v.patch_embd.* and v.position_embd.weight
    stay F32 even in an F16 file (their HF names contain ".embeddings.");
  - clip.vision.projector.scale_factor only when the pooled side is not 4.
Vocabulary: SentencePiece style (`llama` tokenizer model) learned here from
refgen_common.CORPUS, with Gemma's special tokens, byte fallback and the
Gemma 3 chat template.

Usage: gen_gemma3.py --llama-cpp DIR --preset f32|q4k --out DIR [--mmproj-f16]
Writes DIR/model.gguf (F32; quantize it with llama-quantize for q4k) and
DIR/mmproj.gguf.
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refgen_common as rc  # noqa: E402

PRESETS = {
    # LLM: 12 layers so that with the default pattern 6 layers 5 and 11 are
    # global and 10 are sliding-window; head_dim != n_embd / n_head.
    # Vision: 224 / 14 = 16x16 patches pooled 4x4 -> 16 tokens (default
    # scale factor, not written).
    # embd_std / out_norm: the text embedding enters scaled by sqrt(n_embd) and
    # the head is tied to it, so a large embedding makes the model echo its
    # last token; a small one with a large final norm keeps the greedy
    # continuation varied while the logits spread over a few units.
    "f32": dict(seed=29, embd_std=0.05, out_norm=6.0, n_embd=64, n_layer=12, n_head=4, n_head_kv=2, head_dim=32, n_ff=128,
                sliding_window=32, v_width=64, v_ff=160, v_blocks=3, v_heads=4,
                image_size=224, patch=14, pooled_side=4, vocab_pad_to=768),
    # Width 256 so that llama-quantize's Q4_K_M really uses K-quants; the
    # projector pools 12x12 patches by 3 (a test-model geometry: the converter
    # then writes clip.vision.projector.scale_factor = 3).
    "q4k": dict(seed=29, embd_std=0.0125, out_norm=15.0, n_embd=256, n_layer=12, n_head=4, n_head_kv=2, head_dim=128, n_ff=512,
                sliding_window=32, v_width=64, v_ff=192, v_blocks=2, v_heads=4,
                image_size=168, patch=14, pooled_side=4, vocab_pad_to=768),
}

SPIECE_SPACE = "\u2581"

# The chat template Gemma 3 checkpoints ship (tokenizer_config.json) and that
# the converter copies into tokenizer.chat_template.
CHAT_TEMPLATE = (
    "{{ bos_token }}\n"
    "{%- if messages[0]['role'] == 'system' -%}\n"
    "    {%- if messages[0]['content'] is string -%}\n"
    "        {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}\n"
    "    {%- else -%}\n"
    "        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}\n"
    "    {%- endif -%}\n"
    "    {%- set loop_messages = messages[1:] -%}\n"
    "{%- else -%}\n"
    "    {%- set first_user_prefix = \"\" -%}\n"
    "    {%- set loop_messages = messages -%}\n"
    "{%- endif -%}\n"
    "{%- for message in loop_messages -%}\n"
    "    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}\n"
    "        {{ raise_exception(\"Conversation roles must alternate user/assistant/user/assistant/...\") }}\n"
    "    {%- endif -%}\n"
    "    {%- if (message['role'] == 'assistant') -%}\n"
    "        {%- set role = \"model\" -%}\n"
    "    {%- else -%}\n"
    "        {%- set role = message['role'] -%}\n"
    "    {%- endif -%}\n"
    "    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else \"\") }}\n"
    "    {%- if message['content'] is string -%}\n"
    "        {{ message['content'] | trim }}\n"
    "    {%- elif message['content'] is iterable -%}\n"
    "        {%- for item in message['content'] -%}\n"
    "            {%- if item['type'] == 'image' -%}\n"
    "                {{ '<start_of_image>' }}\n"
    "            {%- elif item['type'] == 'text' -%}\n"
    "                {{ item['text'] | trim }}\n"
    "            {%- endif -%}\n"
    "        {%- endfor -%}\n"
    "    {%- else -%}\n"
    "        {{ raise_exception(\"Invalid content type\") }}\n"
    "    {%- endif -%}\n"
    "    {{ '<end_of_turn>\n' }}\n"
    "{%- endfor -%}\n"
    "{%- if add_generation_prompt -%}\n"
    "    {{'<start_of_turn>model\n'}}\n"
    "{%- endif -%}\n"
)


def build_vocab(tt, pad_to):
    """(tokens, scores, types) laid out like Gemma's: control tokens first,
    byte tokens, the learned pieces, the image tokens near the end, then
    [PADn] filler up to pad_to (what the converter writes for ids the
    SentencePiece model does not cover). Types follow the converter: every
    token listed in added_tokens_decoder as special (<pad> <eos> <bos> <unk>
    <mask> <start_of_turn> <end_of_turn> <start_of_image> <end_of_image>
    <image_soft_token>) is CONTROL with score -1000, <unusedN> too."""
    toks, scores, types = [], [], []

    def add(text, score, typ):
        toks.append(text)
        scores.append(float(score))
        types.append(typ)

    for t in ["<pad>", "<eos>", "<bos>", "<unk>", "<mask>"]:
        add(t, -1000.0, tt.CONTROL)
    for i in range(6):
        add(f"<unused{i}>", -1000.0, tt.CONTROL)
    add("<start_of_turn>", -1000.0, tt.CONTROL)
    add("<end_of_turn>", -1000.0, tt.CONTROL)
    # whitespace pieces Gemma's model has as whole tokens
    for i, t in enumerate(["\n", "\n\n", "\n\n\n", SPIECE_SPACE * 2, SPIECE_SPACE * 4, "\t"]):
        add(t, -1.0 - i, tt.NORMAL)
    for b in range(256):
        add(f"<0x{b:02X}>", 0.0, tt.BYTE)

    counts = rc.word_counts(rc.CORPUS, SPIECE_SPACE, list)
    chars = sorted({c for w in counts for c in w})
    merges = rc.learn_merges(counts, 420)
    seen = set(toks)
    n = 0
    for a, b in merges:  # learned order = merge priority (higher score first)
        piece = a + b
        if piece not in seen:
            seen.add(piece)
            add(piece, -10.0 - n, tt.NORMAL)
            n += 1
    for c in chars:
        if c not in seen:
            seen.add(c)
            add(c, -10.0 - n, tt.NORMAL)
            n += 1
    add("<start_of_image>", -1000.0, tt.CONTROL)
    add("<end_of_image>", -1000.0, tt.CONTROL)
    add("<image_soft_token>", -1000.0, tt.CONTROL)
    if len(toks) > pad_to:
        sys.exit(f"vocabulary has {len(toks)} tokens, more than {pad_to}")
    while len(toks) < pad_to:
        add(f"[PAD{len(toks)}]", -10000.0, tt.UNUSED)
    return [t.encode("utf-8") for t in toks], scores, types


def llm_tensors(p, n_vocab, W):
    e, hd, ff = p["n_embd"], p["head_dim"], p["n_ff"]
    out = [("token_embd.weight", W.normal((n_vocab, e), p["embd_std"]))]
    for i in range(p["n_layer"]):
        b = f"blk.{i}."
        out += [(b + "attn_norm.weight", W.around_one(e))]
        out += rc.attention_tensors(W, b, e, p["n_head"], p["n_head_kv"], hd)
        out += [
            (b + "attn_q_norm.weight", W.around_one(hd)),
            (b + "attn_k_norm.weight", W.around_one(hd)),
            (b + "post_attention_norm.weight", W.around_one(e)),
            (b + "ffn_norm.weight", W.around_one(e)),
        ]
        out += rc.glu_ffn_tensors(W, b, e, ff)
        out += [(b + "post_ffw_norm.weight", W.around_one(e))]
    out.append(("output_norm.weight", W.around_one(e) * p["out_norm"]))
    return out


def llm_kv(gguf, p, vocab):
    tokens, scores, types = vocab
    return rc.text_model_kv(gguf, "Gemma 3 (random weights, tiny)", p["n_layer"], 131072, p["n_embd"], p["n_ff"],
                            p["n_head"], p["n_head_kv"]) + [
        ("add_rope_scaling_type", gguf.RopeScalingType.LINEAR),
        ("add_rope_scaling_factor", 8.0),
        ("add_rope_freq_base", 1000000.0),
        ("add_rope_freq_base_swa", 10000.0),
        ("add_layer_norm_rms_eps", 1e-6),
        ("add_key_length", p["head_dim"]),
        ("add_value_length", p["head_dim"]),
        ("add_file_type", gguf.LlamaFileType.ALL_F32),
        ("add_sliding_window", p["sliding_window"]),
        ("add_quantization_version", gguf.GGML_QUANT_VERSION),
        ("add_tokenizer_model", "llama"),
        ("add_tokenizer_pre", "default"),
        ("add_token_list", tokens),
        ("add_token_scores", scores),
        ("add_token_types", types),
        ("add_bos_token_id", 2),
        ("add_eos_token_id", 1),
        ("add_unk_token_id", 3),
        ("add_pad_token_id", 0),
        ("add_add_bos_token", True),
        ("add_add_eos_token", False),
        ("add_chat_template", CHAT_TEMPLATE),
        ("add_add_space_prefix", False),
    ]


def mmproj_tensors(p, W, f16):
    mat = (lambda a: a.astype(np.float16)) if f16 else (lambda a: a)
    n_pos = (p["image_size"] // p["patch"]) ** 2
    return rc.siglip_tensors(W, p["v_width"], p["v_ff"], p["v_blocks"], p["patch"], n_pos, mat) + [
        # raw nn.Parameter [vision, text], always F16 (tensor_force_quant)
        ("mm.input_projection.weight", W.normal((p["v_width"], p["n_embd"]), 1.0 / np.sqrt(p["v_width"])).astype(np.float16)),
        ("mm.soft_emb_norm.weight", W.around_one(p["v_width"])),
    ]


def mmproj_kv(gguf, p, f16):
    kv = rc.mmproj_kv(gguf, "Gemma 3 (random weights, tiny)",
                      gguf.LlamaFileType.MOSTLY_F16 if f16 else gguf.LlamaFileType.ALL_F32,
                      p["n_embd"], p["image_size"], p["patch"], p["v_width"], p["v_ff"], p["v_blocks"], p["v_heads"])
    kv += [
        ("add_clip_projector_type", gguf.VisionProjectorType.GEMMA3),
        ("add_vision_attention_layernorm_eps", 1e-6),
        ("add_vision_use_gelu", True),
    ]
    scale = (p["image_size"] // p["patch"]) // p["pooled_side"]
    if scale > 0 and scale != 4:  # the converter writes it only then
        kv.append(("add_vision_projector_scale_factor", scale))
    kv.append(("add_quantization_version", gguf.GGML_QUANT_VERSION))
    return kv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--preset", required=True, choices=sorted(PRESETS))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    ap.add_argument("--mmproj-f16", action="store_true", help="write the mmproj as the converter's --outtype f16")
    ap.add_argument("--seed", type=int, help="override the preset's weight seed")
    a = ap.parse_args()
    gguf = rc.import_gguf(a.llama_cpp)
    p = dict(PRESETS[a.preset])
    if a.seed is not None:
        p["seed"] = a.seed
    os.makedirs(a.out, exist_ok=True)

    vocab = build_vocab(gguf.TokenType, p["vocab_pad_to"])
    W = rc.Weights(p["seed"])
    rc.write_gguf(gguf, os.path.join(a.out, "model.gguf"), "gemma3",
                  llm_kv(gguf, p, vocab), llm_tensors(p, len(vocab[0]), W))
    rc.write_gguf(gguf, os.path.join(a.out, "mmproj.gguf"), "clip",
                  mmproj_kv(gguf, p, a.mmproj_f16), mmproj_tensors(p, W, a.mmproj_f16))
    print(f"wrote {a.out}/model.gguf ({len(vocab[0])} tokens) and {a.out}/mmproj.gguf")


if __name__ == "__main__":
    main()
