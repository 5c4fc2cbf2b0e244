#!/usr/bin/env python3
"""Differential check of seer's hand-written pre-tokenizers against the real
regexes (Python's `regex` module, with \\s narrowed to Unicode White_Space as
the tokenizers use it) on thousands of random strings. Run from the
repository root:  python3 tools/unicode/check_pretokenizer.py [SEED] [COUNT]
Exits non-zero on any difference."""
import os
import random
import subprocess
import sys
import tempfile

try:
    import regex
except ImportError:
    print("SKIP: python3 'regex' module not installed")
    sys.exit(0)

GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"""
LLAMA3 = (r"""(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
          r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN2 = LLAMA3.replace(r"\p{N}{1,3}", r"\p{N}")
# llama.cpp's adapted Tekken and o200k regexes (upper = letter not a-z, lower = letter not A-Z)
TEKKEN = (r"""[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+"""
          r"""((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
CONTRACTION = r"""(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"""
GPT4O = (r"""[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+""" + CONTRACTION +
         r"""|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*""" + CONTRACTION +
         r"""|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN35 = (r"""(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"""
          r"""| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
# pretok_kind order of engine/tokenizer/vocab_internal.h
KINDS = {
    0: [r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"],  # default
    1: [GPT2],                                                          # gpt-2
    2: [LLAMA3],                                                        # llama3
    3: [QWEN2],                                                         # qwen2
    4: [r"\p{N}", GPT2],                                                # starcoder / smollm
    5: [TEKKEN],                                                        # tekken
    6: [GPT4O],                                                         # gpt-4o / llama4
    7: [QWEN35],                                                        # qwen35
}
WS = "\\t\\n\\x0b\\x0c\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"


def narrow_whitespace(p):
    return p.replace(r"[^\s", "[^" + WS).replace(r"\s", "[" + WS + "]").replace(r"\S", "[^" + WS + "]")


def split(text, patterns):
    """Boundaries after applying each regex in turn: matches and the gaps
    between them both become fragments."""
    bounds = [0, len(text)] if text else [0]
    for p in patterns:
        r = regex.compile(narrow_whitespace(p))
        nb = [0]
        for a, b in zip(bounds, bounds[1:]):
            frag, last = text[a:b], 0
            for m in r.finditer(frag):
                if m.start() > last:
                    nb.append(a + m.start())
                nb.append(a + m.end())
                last = m.end()
            if last < len(frag):
                nb.append(b)
        bounds = nb
    return bounds


POOL = list("abcXYZHelloWORLD/  \n\n\r\t''sStTlLdDmMvVeE0123456789.,!?;:-_()[]{}<>=+$^~|@#\"/\\") + [
    "é", "ß", "Ω", "日", "本", "٣", "½", "²", "Ⅳ", "\u00a0", "\u2028", "\u3000", "🙂", "\u0301", "\x1c", "\x00",
    "\u200b", "’", "\u2009", "ǅ", "\x85"]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "pretok_split")
        src = [os.path.join(root, "tools/unicode/pretok_split.c")] + [
            os.path.join(root, "engine/tokenizer", f) for f in ("pretokenize.c", "pretokenize_classes.c", "unicode.c", "unicode_tables.c")]
        subprocess.run(["cc", "-O1", "-std=c11", "-D_GNU_SOURCE", "-I" + os.path.join(root, "include"),
                        "-I" + os.path.join(root, "engine"), *src, "-o", exe], check=True)
        random.seed(seed)
        tests = ["", " ", "  ", "a  b", "\n\n\nx", "It's 12345 'RE' \r\n\r\n  x", "Hello world", "   \n"]
        tests += ["".join(random.choice(POOL) for _ in range(random.randint(0, 40))) for _ in range(count)]
        bad = 0
        for kind, patterns in KINDS.items():
            inp = "".join(t.encode("utf-8").hex() + "\n" for t in tests)
            out = subprocess.run([exe, str(kind)], input=inp, capture_output=True, text=True, check=True).stdout
            for t, line in zip(tests, out.splitlines()):
                got, want = list(map(int, line.split())), split(t, patterns)
                if got != want:
                    bad += 1
                    if bad <= 10:
                        print("kind %d %r: got %s want %s" % (kind, t, got, want))
        print("%d differences in %d splits" % (bad, len(tests) * len(KINDS)))
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
