#!/bin/sh
# Rebuilds the LFM2-VL conformance cases (lfm2vl-f32, lfm2vl-q8_0, lfm2vl-tiled-q4_k):
# random-weight GGUFs (gen_lfm2vl.py), llama-quantize for the Q8_0 and Q4_K_M LLMs, then conformance-dump
# against upstream llama.cpp (no correction needed). case.json and prompt.txt
# are kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_lfm2vl_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR [CASES_DIR]]
#   CASES_DIR defaults to tests/conformance/cases.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_lfm2vl_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR [CASES_DIR]]}
build=${2:-$llama/build-avx2}
cases=${3:-$here/../../tests/conformance/cases}
py=${PYTHON:-python3}
dump=$here/build/conformance-dump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_lfm2vl.py" --llama-cpp "$llama" --config lfm2vl-f32 --out "$cases/lfm2vl-f32"
"$py" "$here/gen_lfm2vl.py" --llama-cpp "$llama" --config lfm2vl-q8src --mmproj-f16 --out "$tmp/q8"
"$build/bin/llama-quantize" "$tmp/q8/model.gguf" "$cases/lfm2vl-q8_0/model.gguf" Q8_0 2
cp "$tmp/q8/mmproj.gguf" "$cases/lfm2vl-q8_0/mmproj.gguf"
"$py" "$here/gen_lfm2vl.py" --llama-cpp "$llama" --config lfm2vl-q4ksrc --mmproj-f16 --out "$tmp/q4"
"$build/bin/llama-quantize" "$tmp/q4/model.gguf" "$cases/lfm2vl-tiled-q4_k/model.gguf" Q4_K_M 2
cp "$tmp/q4/mmproj.gguf" "$cases/lfm2vl-tiled-q4_k/mmproj.gguf"

for c in lfm2vl-f32 lfm2vl-q8_0 lfm2vl-tiled-q4_k; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
done
