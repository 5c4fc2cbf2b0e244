#!/bin/sh
# Regenerates seer's Qwen3.5 / 3.6 conformance cases from scratch: random-weight GGUF files
# (gen_qwen35.py), the Q4_K_M MoE LLM (llama.cpp's llama-quantize), and every expected/
# folder (conformance-dump). case.json and prompt.txt are written by hand and kept; the
# test images come from gen_images.py (make_qwen3vl_cases.sh writes them).
# Usage: tools/conformance-ref/make_qwen35_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_qwen35_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { "$py" "$here/gen_qwen35.py" --llama-cpp "$llama" "$@"; }
gen --config qwen35-f32 --llm "$cases/qwen35-f32/model.gguf" --mmproj "$cases/qwen35-f32/mmproj.gguf"
gen --config qwen35-text-f32 --llm "$cases/text-qwen35-f32/model.gguf"
# the MoE Q4_K_M case: F32 LLM from the generator (not kept), quantized as a user would
gen --config qwen35moe-q4src --llm "$tmp/moe-f32.gguf" --mmproj "$cases/qwen35moe-q4_k-twoimg/mmproj.gguf"
"$quantize" "$tmp/moe-f32.gguf" "$cases/qwen35moe-q4_k-twoimg/model.gguf" Q4_K_M > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }

for c in qwen35-f32 text-qwen35-f32 qwen35moe-q4_k-twoimg; do
    "$dump" --case "$cases/$c"
done
