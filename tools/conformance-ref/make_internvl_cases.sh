#!/bin/sh
# Rebuilds the InternVL conformance cases (internvl3-f32, internvl3-q8_0-twoimg,
# internvl35-f32) under tests/conformance/cases: random-weight GGUFs
# (gen_internvl.py), llama-quantize for the Q8_0 LLM, then conformance-dump
# built against a llama.cpp whose InternViT puts the class token first (see
# README.md, "The InternVL cases"). case.json and prompt.txt are kept (written
# by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_internvl_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]
#   FIXED_DUMP: conformance-dump linked against the corrected libmtmd.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_internvl_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]}
dump=${2:?usage: make_internvl_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]}
build=${3:-$llama/build-avx2}
py=${PYTHON:-python3}
cases=$here/../../tests/conformance/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_internvl.py" --llama-cpp "$llama" --config internvl3-f32 --out "$cases/internvl3-f32"
"$py" "$here/gen_internvl.py" --llama-cpp "$llama" --config internvl3-q8src --mmproj-f16 --out "$tmp/q8"
"$build/bin/llama-quantize" "$tmp/q8/model.gguf" "$cases/internvl3-q8_0-twoimg/model.gguf" Q8_0 2
cp "$tmp/q8/mmproj.gguf" "$cases/internvl3-q8_0-twoimg/mmproj.gguf"
"$py" "$here/gen_internvl.py" --llama-cpp "$llama" --config internvl35-f32 --out "$cases/internvl35-f32"

for c in internvl3-f32 internvl3-q8_0-twoimg internvl35-f32; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
done
