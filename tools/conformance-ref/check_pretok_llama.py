#!/usr/bin/env python3
"""Differential check of seer's pre-tokenizers against llama.cpp itself: the
regexes of each pre-tokenizer are read from llama.cpp's src/llama-vocab.cpp
and run by its unicode_regex_split (libllama, tools/conformance-ref/pretok_ref.cpp),
seer's by tools/unicode/pretok_split.c, on random strings of letters, marks,
digits, punctuation, symbols, CJK, kana, Hangul, full-width forms and many
kinds of whitespace. This covers the pre-tokenizers without a vocabulary
file in ../shared/conformance/vocab (deepseek-v3, kimi-k2, ...). Run from the
repository root:
    python3 tools/conformance-ref/check_pretok_llama.py LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [SEED] [COUNT]
Exits non-zero on any difference."""
import os
import random
import re
import subprocess
import sys
import tempfile

# seer's pretok_kind numbers (engine/tokenizer/vocab_internal.h) -> llama.cpp's
# LLAMA_VOCAB_PRE_TYPE_* case holding the same regexes ("" = its default).
# Several llama.cpp cases may share one of seer's.
KINDS = [(0, ""), (1, "GPT2"), (2, "LLAMA3"), (3, "QWEN2"), (3, "BAILINGMOE"), (3, "GROK_2"), (4, "STARCODER"),
         (5, "TEKKEN"), (6, "GPT4O"), (7, "QWEN35"), (8, "FALCON"), (9, "DEEPSEEK_LLM"), (10, "DEEPSEEK_CODER"),
         (11, "DEEPSEEK3_LLM"), (12, "KIMI_K2"), (13, "GEMMA4"), (14, "UFAKZEKA"), (15, "SEED_CODER"),
         (16, "MINICPM5"), (17, "LAGUNA")]

POOL = list("abcXYZHelloWORLD/  \n\n\r\t''sStTlLdDmMvVeE0123456789.,!?;:-_()[]{}<>=+$^~|@#\"/\\`") + [
    "é", "ß", "Ω", "Ж", "日", "本", "中", "龥", "龦", "㐀", "𠀀", "ぁ", "カ", "ー", "한", "ㄱ", "٣", "½", "²", "Ⅳ",
    "\u00a0", "\u2028", "\u3000", "\u2003", "\x85", "\u200b", "\x1c", "\x00", "🙂", "🦙", "\u0301", "\u0903",
    "\u20dd", "’", "“", "「", "。", "，", "！", "Ａ", "ｚ", "＄", "€", "©", "µ", "ǅ", "ʔ", "\u0800", "\u0e01",
    "\u0e31", "ก", "न", "्", "\ud7ff", "\U0010fffd", "\u2581", "'",
    "\U00031350", "\U0002EBF0", "\u2FFC", "\U0001F6DC", "\u0CF3", "\U00011F50"]  # Unicode 15.0/15.1 additions


def c_unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            nxt = s[i + 1]
            out.append({"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"'}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def regexes_of(source, case):
    """The regex_exprs list of one case of llm_tokenizer_bpe's constructor."""
    label = ("case LLAMA_VOCAB_PRE_TYPE_%s:" % case) if case else "default:"
    start = source.index(label, source.index("struct llm_tokenizer_bpe : llm_tokenizer"))
    body = source[source.index("regex_exprs = {", start):]
    body = body[:body.index("};")]
    lines = [l.strip() for l in body.splitlines()[1:] if not l.strip().startswith("//")]
    return [c_unescape(m.group(1)) for l in lines for m in [re.match(r'"((?:[^"\\]|\\.)*)"', l)] if m]


def main():
    llama = sys.argv[1]
    build = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else os.path.join(llama, "build-avx2")
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    source = open(os.path.join(llama, "src/llama-vocab.cpp"), encoding="utf-8").read()
    libdir = os.path.join(build, "bin")
    with tempfile.TemporaryDirectory() as tmp:
        seer_exe, ref_exe = os.path.join(tmp, "pretok_split"), os.path.join(tmp, "pretok_ref")
        src = [os.path.join(root, "tools/unicode/pretok_split.c")] + [
            os.path.join(root, "engine/tokenizer", f)
            for f in ("pretokenize.c", "pretokenize_classes.c", "unicode.c", "unicode_tables.c")]
        subprocess.run(["cc", "-O1", "-std=c11", "-D_GNU_SOURCE", "-I" + os.path.join(root, "include"),
                        "-I" + os.path.join(root, "engine"), *src, "-o", seer_exe], check=True)
        subprocess.run(["c++", "-O1", "-std=c++17", os.path.join(root, "tools/conformance-ref/pretok_ref.cpp"),
                        "-L" + libdir, "-Wl,-rpath," + libdir, "-lllama", "-o", ref_exe], check=True)
        random.seed(seed)
        # No empty text: llama.cpp never splits one (its Kimi K2 splitter falls
        # back to std::regex on "\p{Han}+", which std::regex rejects).
        tests = [" ", "  ", "a  b", "\n\n\nx", "It's 12345 'RE' \r\n\r\n  x", "Hello world", "   \n", "x   "]
        tests += ["".join(random.choice(POOL) for _ in range(random.randint(1, 40))) for _ in range(count)]
        inp = "".join(t.encode("utf-8", "surrogatepass").hex() + "\n" for t in tests)
        bad = 0
        for kind, case in KINDS:
            regex_file = os.path.join(tmp, "regexes")
            with open(regex_file, "w") as f:
                f.write("".join(r.encode("utf-8").hex() + "\n" for r in regexes_of(source, case)))
            got = subprocess.run([seer_exe, str(kind)], input=inp, capture_output=True, text=True,
                                 check=True).stdout.splitlines()
            want = subprocess.run([ref_exe, regex_file], input=inp, capture_output=True, text=True,
                                  check=True).stdout.splitlines()
            n_bad = 0
            for t, g, w in zip(tests, got, want):
                if g.split() != w.split():
                    n_bad += 1
                    if n_bad <= 3:
                        print("%s %r:\n  seer  %s\n  llama %s" % (case or "default", t, g, w))
            print("%-15s %d of %d splits differ" % (case or "default", n_bad, len(tests)))
            bad += n_bad
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
