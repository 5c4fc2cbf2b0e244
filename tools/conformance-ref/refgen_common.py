"""Shared pieces of the conformance-case generators (gen_gemma3.py, gen_idefics3.py).

The generators write random-weight GGUF files in the layouts llama.cpp's
converters write for real checkpoints. They use gguf-py from a llama.cpp
checkout given on the command line (never a copy of it), numpy, and nothing
else. The vocabularies are learned from the English text below; the test
images come from gen_images.py.
"""

import argparse
import collections
import os
import re
import sys

import numpy as np

# Our own English text: the corpus the toy vocabularies are learned from.
CORPUS = """
The small picture shows a red house with a yellow door, a green hill behind it and a blue sky above.
There are two windows on the front of the house and a third one in the roof. A path of grey stones
leads from the door to the bottom of the picture, where a white fence runs from the left side to the
right side. On the hill stand three trees; the tallest one is on the left and the smallest one is close
to the house. The sun is in the top right corner, partly hidden by a cloud that looks like a sheep.
Describe what you see in the image, count the objects, and say where each one is. Which colour is the
door? Is the window open or closed? How many trees are there, and which one is the tallest? What is
in the top left corner of the picture, and what is below the cloud? Answer in one short sentence.
A careful answer names the shapes, their colours and their places: the circle is above the square,
the triangle is to the right of the circle, and the star is near the bottom edge of the frame.
Numbers help too: there are 3 trees, 2 windows, 1 door and 12 stones on the path, 7 of them grey.
People often ask about the weather in a photo, the time of day, the season, or the mood of a scene.
The model should read the text on a sign, tell a cat from a dog, and notice when something is missing.
When nothing like a circle is in the picture, the right answer is that there is no circle at all.
"""


def import_gguf(llama_cpp):
    """gguf-py from the llama.cpp checkout (kept there, imported from there)."""
    path = os.path.join(llama_cpp, "gguf-py")
    if not os.path.isdir(os.path.join(path, "gguf")):
        sys.exit(f"no gguf-py under {llama_cpp}")
    sys.path.insert(0, path)
    import gguf  # noqa: E402
    return gguf


def learn_merges(words, n_merges, min_count=1):
    """Byte-pair learning over a word-frequency table.

    words: {tuple_of_symbols: count}. Returns the merged pairs in the order they
    were learned (most frequent pair first, ties broken by the pair's text so
    the result does not depend on dict order); stops early when no pair occurs
    min_count times."""
    words = dict(words)
    merges = []
    for _ in range(n_merges):
        pairs = collections.Counter()
        for sym, n in words.items():
            for a, b in zip(sym, sym[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        if pairs[best] < min_count:
            break
        merges.append(best)
        joined = best[0] + best[1]
        new_words = {}
        for sym, n in words.items():
            out, i = [], 0
            while i < len(sym):
                if i + 1 < len(sym) and (sym[i], sym[i + 1]) == best:
                    out.append(joined)
                    i += 2
                else:
                    out.append(sym[i])
                    i += 1
            new_words[tuple(out)] = new_words.get(tuple(out), 0) + n
        words = new_words
    return merges


def gpt2_byte_chars():
    """GPT-2's reversible byte -> printable character table (the one
    byte-level BPE vocabularies are written in): printable bytes stand for
    themselves, the others take code points from 256 up, in byte order."""
    keep = set(range(ord("!"), ord("~") + 1)) | set(range(0xA1, 0xAC + 1)) | set(range(0xAE, 0xFF + 1))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def word_counts(text, space_symbol, to_symbols):
    """Words of the corpus with the space that precedes them written as
    space_symbol, split into symbols by to_symbols, with their counts.
    Punctuation is split off into words of its own, so no piece spans a
    word and the mark after it."""
    counts = collections.Counter()
    for line in text.strip().split("\n"):
        for i, w in enumerate(line.split(" ")):
            for j, part in enumerate(re.findall(r"[A-Za-z0-9]+|[^A-Za-z0-9]+", w)):
                lead = space_symbol if i and j == 0 else ""
                counts[tuple(to_symbols(lead + part))] += 1
    return counts


SPIECE_SPACE = "\u2581"


def spm_vocab(tt, size, added=(), n_merges=560):
    """A SentencePiece-style vocabulary in LLaMA's layout: <unk> <s> </s>, the
    256 byte tokens, pieces learned from CORPUS (higher score = earlier merge),
    single characters, then the added tokens (CONTROL), [PADn] filler up to
    size. Returns (tokens as bytes, scores, types)."""
    toks, scores, types = ["<unk>", "<s>", "</s>"], [0.0, 0.0, 0.0], [tt.UNKNOWN, tt.CONTROL, tt.CONTROL]
    for b in range(256):
        toks.append(f"<0x{b:02X}>")
        scores.append(0.0)
        types.append(tt.BYTE)
    counts = word_counts(CORPUS, SPIECE_SPACE, list)
    seen = set(toks)
    pieces = [a + b for a, b in learn_merges(counts, n_merges)] + sorted({c for w in counts for c in w})
    for p in pieces:
        if p not in seen:
            seen.add(p)
            toks.append(p)
            scores.append(-float(len(toks)))
            types.append(tt.NORMAL)
    for t in added:
        toks.append(t)
        scores.append(0.0)
        types.append(tt.CONTROL)
    assert len(toks) <= size, f"vocabulary of {len(toks)} tokens over {size}"
    while len(toks) < size:
        toks.append(f"[PAD{len(toks)}]")
        scores.append(-10000.0)
        types.append(tt.UNUSED)
    return [t.encode("utf-8") for t in toks], scores, types


def spm_vocab_kv(vocab):
    """The tokenizer keys of a spm_vocab vocabulary, in the order the
    converters' SentencePiece path writes them: LLaMA's ids, BOS added."""
    toks, scores, types = vocab
    return [
        ("add_tokenizer_model", "llama"),
        ("add_tokenizer_pre", "default"),
        ("add_token_list", toks),
        ("add_token_scores", scores),
        ("add_token_types", types),
        ("add_bos_token_id", 1),
        ("add_eos_token_id", 2),
        ("add_unk_token_id", 0),
        ("add_add_bos_token", True),
        ("add_add_eos_token", False),
    ]


# ---- random weights ----

class Weights:
    """Seeded random tensors, float32, shapes in numpy order (HF order: a
    linear layer is [out, in], which is ggml's [in, out])."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def normal(self, shape, std):
        return (self.rng.standard_normal(shape) * std).astype(np.float32)

    def linear(self, n_out, n_in, gain=1.0):
        return self.normal((n_out, n_in), gain / np.sqrt(n_in))

    def around_one(self, n, spread=0.1):
        return (1.0 + self.rng.standard_normal(n) * spread).astype(np.float32)


def text_model_kv(gguf, name, n_layer, n_ctx, n_embd, n_ff, n_head, n_head_kv):
    """The first keys conversion/base.py TextModel.set_gguf_parameters writes,
    in its order (the architecture's own keys follow)."""
    return [
        ("add_type", gguf.GGUFType.MODEL),
        ("add_name", name),
        ("add_block_count", n_layer),
        ("add_context_length", n_ctx),
        ("add_embedding_length", n_embd),
        ("add_feed_forward_length", n_ff),
        ("add_head_count", n_head),
        ("add_head_count_kv", n_head_kv),
    ]


def attention_tensors(W, b, n_embd, n_head, n_head_kv, head_dim):
    """blk.N attention projections of a decoder layer (b = "blk.N.")."""
    return [
        (b + "attn_q.weight", W.linear(n_head * head_dim, n_embd)),
        (b + "attn_k.weight", W.linear(n_head_kv * head_dim, n_embd)),
        (b + "attn_v.weight", W.linear(n_head_kv * head_dim, n_embd)),
        (b + "attn_output.weight", W.linear(n_embd, n_head * head_dim)),
    ]


def glu_ffn_tensors(W, b, n_embd, n_ff):
    """blk.N gated FFN (gate, up, down) of a decoder layer."""
    return [
        (b + "ffn_gate.weight", W.linear(n_ff, n_embd)),
        (b + "ffn_up.weight", W.linear(n_ff, n_embd)),
        (b + "ffn_down.weight", W.linear(n_embd, n_ff)),
    ]


def mmproj_kv(gguf, name, ftype, n_text, image_size, patch, width, ff, blocks, heads):
    """The keys conversion/base.py MmprojModel.set_gguf_parameters writes for a
    vision encoder, in its order (the projector's own keys follow)."""
    return [
        ("add_type", gguf.GGUFType.MMPROJ),
        ("add_name", name),
        ("add_file_type", ftype),
        ("add_clip_has_vision_encoder", True),
        ("add_vision_projection_dim", n_text),
        ("add_vision_image_size", image_size),
        ("add_vision_patch_size", patch),
        ("add_vision_embedding_length", width),
        ("add_vision_feed_forward_length", ff),
        ("add_vision_block_count", blocks),
        ("add_vision_head_count", heads),
        ("add_vision_image_mean", [0.5, 0.5, 0.5]),
        ("add_vision_image_std", [0.5, 0.5, 0.5]),
    ]


def siglip_tensors(W, width, ff, blocks, patch, n_pos, mat=lambda a: a):
    """A SigLIP tower under llama.cpp's names: patch convolution with bias,
    learned positions (no class token), LayerNorm blocks with biases (ffn_up
    = fc1, ffn_down = fc2), post-LN. mat converts the block matrices (F16 in
    an F16 file); the patch kernel and positions stay F32, as the converters
    keep tensors whose HF name contains '.embeddings.'."""
    c = width
    out = [
        ("v.patch_embd.weight", W.normal((c, 3, patch, patch), 1.0 / np.sqrt(3 * patch * patch))),
        ("v.patch_embd.bias", W.normal((c,), 0.02)),
        ("v.position_embd.weight", W.normal((n_pos, c), 0.3)),
    ]
    for i in range(blocks):
        b = f"v.blk.{i}."
        out += [
            (b + "attn_q.weight", mat(W.linear(c, c))), (b + "attn_q.bias", W.normal((c,), 0.02)),
            (b + "attn_k.weight", mat(W.linear(c, c))), (b + "attn_k.bias", W.normal((c,), 0.02)),
            (b + "attn_v.weight", mat(W.linear(c, c))), (b + "attn_v.bias", W.normal((c,), 0.02)),
            (b + "attn_out.weight", mat(W.linear(c, c))), (b + "attn_out.bias", W.normal((c,), 0.02)),
            (b + "ln1.weight", W.around_one(c)), (b + "ln1.bias", W.normal((c,), 0.02)),
            (b + "ffn_up.weight", mat(W.linear(ff, c))), (b + "ffn_up.bias", W.normal((ff,), 0.02)),
            (b + "ffn_down.weight", mat(W.linear(c, ff))), (b + "ffn_down.bias", W.normal((c,), 0.02)),
            (b + "ln2.weight", W.around_one(c)), (b + "ln2.bias", W.normal((c,), 0.02)),
        ]
    out += [("v.post_ln.weight", W.around_one(c)), ("v.post_ln.bias", W.normal((c,), 0.02))]
    return out


def write_gguf(gguf, path, arch, kv, tensors):
    """kv: list of (writer method name, *args) applied in order; tensors: list of
    (name, numpy array) in file order; the array's dtype picks the GGUF type
    (float32 -> F32, float16 -> F16)."""
    w = gguf.GGUFWriter(path, arch)
    for call in kv:
        getattr(w, call[0])(*call[1:])
    for name, arr in tensors:
        w.add_tensor(name, np.ascontiguousarray(arr))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def model_pair_cli(doc, configs, write):
    """The command line of a generator that writes one folder's model.gguf and
    mmproj.gguf (--llama-cpp, --config, --out): write(gguf, cfg, out_dir) writes
    both and returns the LLM's token count."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp checkout (for gguf-py)")
    ap.add_argument("--config", required=True, choices=sorted(configs))
    ap.add_argument("--out", required=True, help="folder for model.gguf and mmproj.gguf")
    a = ap.parse_args()
    gguf = import_gguf(a.llama_cpp)
    os.makedirs(a.out, exist_ok=True)
    n_tokens = write(gguf, configs[a.config], a.out)
    print(f"wrote {a.out}/model.gguf ({n_tokens} tokens) and {a.out}/mmproj.gguf")
