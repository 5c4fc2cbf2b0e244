#!/bin/sh
# Regenerates seer's Qwen3-VL (and plain Qwen3) conformance cases from scratch: test images,
# random-weight GGUF files (gen_qwen3vl.py), the Q4_K_M, Q5_K_M, IQ4, Q3_K_M, Q2_K and Q4_0/Q5_0/Q4_1/Q5_1 LLMs (llama.cpp's
# llama-quantize), and every expected/ folder (conformance-dump). case.json and
# prompt.txt are written by hand and kept.
# Usage: tools/conformance-ref/make_qwen3vl_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_qwen3vl_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_images.py" "$repo/tests/conformance/images"

gen() { "$py" "$here/gen_qwen3vl.py" --llama-cpp "$llama" "$@"; }
gen --config qwen3vl-f32 --llm "$cases/qwen3vl-f32/model.gguf" --mmproj "$cases/qwen3vl-f32/mmproj.gguf"
gen --config qwen3vlmoe-f32 --llm "$cases/qwen3vlmoe-f32/model.gguf" --mmproj "$cases/qwen3vlmoe-f32/mmproj.gguf"
gen --config qwen3-f32 --llm "$cases/text-qwen3-f32/model.gguf"
gen --config qwen3moe-f32 --llm "$cases/text-qwen3moe-f32/model.gguf"
# the Q4_K_M case: F32 LLM from the generator (not kept), quantized as a user would
gen --config qwen3vl-q4src --llm "$tmp/q4src-f32.gguf" --mmproj "$cases/qwen3vl-q4_k-twoimg/mmproj.gguf"
"$quantize" "$tmp/q4src-f32.gguf" "$cases/qwen3vl-q4_k-twoimg/model.gguf" Q4_K_M > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
# the Q5_K_M case: the same F32 weights as a user's Q5_K_M download
"$quantize" "$tmp/q4src-f32.gguf" "$cases/qwen3vl-q5_k-twoimg/model.gguf" Q5_K_M > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
# the IQ4 cases: the same F32 weights as IQ4_XS (rows of 256), and the text
# model's (rows of 128/384: IQ4_NL fallbacks), no importance matrix
"$quantize" "$tmp/q4src-f32.gguf" "$cases/qwen3vl-iq4_xs-twoimg/model.gguf" IQ4_XS > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
"$quantize" "$cases/text-qwen3-f32/model.gguf" "$cases/text-qwen3-iq4_nl/model.gguf" IQ4_XS > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
# the low-bit K-quant cases: the same F32 weights as Q3_K_M and Q2_K downloads
"$quantize" "$tmp/q4src-f32.gguf" "$cases/qwen3vl-q3_k-twoimg/model.gguf" Q3_K_M > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
"$quantize" "$tmp/q4src-f32.gguf" "$cases/qwen3vl-q2_k-twoimg/model.gguf" Q2_K > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }
# the legacy types, text only with the long prompt (text-long-*)
for t in Q4_0 Q5_0 Q4_1 Q5_1; do
    l=$(echo "$t" | tr 'A-Z' 'a-z')
    "$quantize" "$tmp/q4src-f32.gguf" "$cases/text-long-$l/model.gguf" "$t" > "$tmp/quantize.log" 2>&1 ||
        { cat "$tmp/quantize.log"; exit 1; }
done

for c in qwen3vl-f32 qwen3vl-q4_k-twoimg qwen3vl-q5_k-twoimg qwen3vl-iq4_xs-twoimg qwen3vl-q3_k-twoimg qwen3vl-q2_k-twoimg text-qwen3-iq4_nl qwen3vlmoe-f32 text-qwen3vl-f32 text-qwen3-f32 text-qwen3moe-f32 \
         text-long-q4_k text-long-q5_k text-long-iq4_xs text-long-q3_k text-long-q2_k \
         text-long-q4_0 text-long-q5_0 text-long-q4_1 text-long-q5_1; do
    "$dump" --case "$cases/$c"
done
