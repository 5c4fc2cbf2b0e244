"""Byte-level BPE in the GPT-2 style (what llama.cpp calls `gpt2` with the
`gpt-2` pre-tokenizer), trained on the demo's question/answer text.

Vocabulary layout: 256 byte tokens, then one token per merge, then the ChatML
control tokens. The text is ASCII, so the pre-tokenizer's letter / number
classes reduce to [A-Za-z] / [0-9].
"""
import re
from collections import Counter

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# GPT-2's pre-tokenizer regex, ASCII classes (\p{L} -> letters, \p{N} -> digits).
_PRE = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+""")
_SPECIAL_SPLIT = re.compile("(" + "|".join(re.escape(s) for s in SPECIALS) + ")")


def bytes_to_unicode():
    """GPT-2's reversible byte -> printable character map."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


BYTE_CHAR = bytes_to_unicode()


def pretokenize(text):
    return _PRE.findall(text)


def _word_symbols(word):
    return tuple(BYTE_CHAR[b] for b in word.encode("utf-8"))


def train(texts, max_merges, min_count=2):
    """Returns the merge list [(a, b), ...] in rank order."""
    words = Counter()
    for t in texts:
        for w in pretokenize(t):
            words[_word_symbols(w)] += 1
    words = dict(words)
    merges = []
    while len(merges) < max_merges:
        pairs = Counter()
        for w, c in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] += c
        if not pairs:
            break
        # highest count; ties broken by the pair itself so training is reproducible
        best, count = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))
        if count < min_count:
            break
        merges.append(best)
        merged = best[0] + best[1]
        new_words = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(merged)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new_words[tuple(out)] = new_words.get(tuple(out), 0) + c
        words = new_words
    return merges


class Tokenizer:
    def __init__(self, merges):
        self.merges = [tuple(m) for m in merges]
        self.ranks = {m: i for i, m in enumerate(self.merges)}
        byte_tokens = [BYTE_CHAR[b] for b in range(256)]
        merged = [a + b for a, b in self.merges]
        self.tokens = byte_tokens + merged + SPECIALS
        # A merged string can repeat an existing token only if training made
        # the same string twice, which BPE never does.
        assert len(set(self.tokens)) == len(self.tokens)
        self.id_of = {t: i for i, t in enumerate(self.tokens)}
        self.special_ids = {s: self.id_of[s] for s in SPECIALS}
        self._cache = {}

    @property
    def n_vocab(self):
        return len(self.tokens)

    def _bpe(self, word):
        if word in self._cache:
            return self._cache[word]
        syms = list(_word_symbols(word))
        while len(syms) > 1:
            best, best_rank = None, None
            for i in range(len(syms) - 1):
                r = self.ranks.get((syms[i], syms[i + 1]))
                if r is not None and (best_rank is None or r < best_rank):
                    best, best_rank = i, r
            if best is None:
                break
            syms[best:best + 2] = [syms[best] + syms[best + 1]]
        ids = [self.id_of[s] for s in syms]
        self._cache[word] = ids
        return ids

    def encode(self, text, parse_special=True):
        ids = []
        pieces = _SPECIAL_SPLIT.split(text) if parse_special else [text]
        for p in pieces:
            if not p:
                continue
            if parse_special and p in self.special_ids:
                ids.append(self.special_ids[p])
                continue
            for w in pretokenize(p):
                ids.extend(self._bpe(w))
        return ids

    def decode(self, ids):
        inv = {c: b for b, c in BYTE_CHAR.items()}
        out = bytearray()
        for i in ids:
            t = self.tokens[i]
            if t in self.special_ids:
                out += t.encode()
            else:
                out += bytes(inv[c] for c in t)
        return out.decode("utf-8", errors="replace")
