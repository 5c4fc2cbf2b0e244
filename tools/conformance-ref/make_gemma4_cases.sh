#!/bin/sh
# Regenerates seer's Gemma 4 conformance cases from scratch: random-weight GGUF
# files (gen_gemma4.py), the Q8_0 LLM of the E-shape case (llama.cpp's
# llama-quantize), and every expected/ folder (conformance-dump). case.json and
# prompt.txt are written by hand and kept.
# Usage: tools/conformance-ref/make_gemma4_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_gemma4_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { "$py" "$here/gen_gemma4.py" --llama-cpp "$llama" "$@"; }
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
gen --preset 31b --out "$cases/text-gemma4-31b-f32"
gen --preset 31b --mmproj --gemma4-vocab --out "$cases/gemma4-31b-f32"
gen --preset 31b --mmproj --gemma4-vocab --clip --out "$cases/gemma4-clip-f32"
gen --preset moe --out "$cases/text-gemma4-26b-moe-f32"
gen --preset e --out "$tmp/e"
"$quantize" "$tmp/e/model.gguf" "$cases/text-gemma4-e-q8_0/model.gguf" Q8_0 > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }

for c in gemma4-31b-f32 gemma4-clip-f32 text-gemma4-31b-f32 text-gemma4-e-q8_0 text-gemma4-26b-moe-f32; do
    "$dump" --case "$cases/$c"
done
