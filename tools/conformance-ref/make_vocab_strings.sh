#!/usr/bin/env bash
# Expected token ids for seer's own tokenizer test strings: for every
# tests/conformance/vocab/ggml-vocab-NAME.gguf.inp (strings separated by a
# line "__ggml_vocab_test__", as in llama.cpp's tests/*.inp), writes the .out
# beside it (one line of ids per string) from llama.cpp's llama-tokenize run on
# VOCAB_DIR/ggml-vocab-NAME.gguf without BOS/EOS and with special tokens as
# plain text, as test-tokenizer-0 tokenizes. These add strings the upstream
# files lack (combining marks, CJK, full-width punctuation, ...).
# Usage (from the repository root):
#   tools/conformance-ref/make_vocab_strings.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [VOCAB_DIR]
set -euo pipefail
llama=${1:?usage: make_vocab_strings.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [VOCAB_DIR]}
build=${2:-$llama/build-avx2}
vocab_dir=${3:-../shared/conformance/vocab}
tokenize=$build/bin/llama-tokenize
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for inp in tests/conformance/vocab/ggml-vocab-*.gguf.inp; do
  name=$(basename "$inp" .inp)
  out=${inp%.inp}.out
  # Split the .inp into one file per string (exact bytes, no trailing newline).
  python3 - "$inp" "$tmp" <<'PY'
import sys
raw = open(sys.argv[1], 'rb').read()
parts = raw.split(b'\n__ggml_vocab_test__\n')
if parts and parts[-1] == b'':
    parts.pop()
for i, p in enumerate(parts):
    open('%s/s%04d' % (sys.argv[2], i), 'wb').write(p)
PY
  : > "$out.tmp"
  for s in "$tmp"/s*; do
    ids=$("$tokenize" -m "$vocab_dir/$name" --ids --no-bos --no-parse-special --no-escape --log-disable --file "$s" 2>/dev/null | tail -n 1)
    echo "$ids" | tr -d '[],' >> "$out.tmp"
    rm "$s"
  done
  mv "$out.tmp" "$out"
  echo "$out: $(wc -l < "$out") strings"
done
