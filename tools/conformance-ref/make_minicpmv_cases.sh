#!/bin/sh
# Rebuilds the MiniCPM-V conformance cases (minicpmv26-f32, minicpmv45-q8_0-twoimg,
# minicpmv25-f32): random-weight GGUFs (gen_minicpmv.py), llama-quantize for the
# Q8_0 LLM, then conformance-dump against upstream llama.cpp (unpatched).
# case.json and prompt.txt are kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_minicpmv_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [CASES_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_minicpmv_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR] [CASES_DIR]}
build=${2:-$llama/build-avx2}
cases=${3:-$here/../../tests/conformance/cases}
py=${PYTHON:-python3}
dump=$here/build/conformance-dump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_minicpmv.py" --llama-cpp "$llama" --config minicpmv26-f32 --out "$cases/minicpmv26-f32"
"$py" "$here/gen_minicpmv.py" --llama-cpp "$llama" --config minicpmv45-q8src --mmproj-f16 --out "$tmp/q8"
"$build/bin/llama-quantize" "$tmp/q8/model.gguf" "$cases/minicpmv45-q8_0-twoimg/model.gguf" Q8_0 2
cp "$tmp/q8/mmproj.gguf" "$cases/minicpmv45-q8_0-twoimg/mmproj.gguf"
"$py" "$here/gen_minicpmv.py" --llama-cpp "$llama" --config minicpmv25-f32 --mmproj-f16 --out "$cases/minicpmv25-f32"

for c in minicpmv26-f32 minicpmv45-q8_0-twoimg minicpmv25-f32; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
done
