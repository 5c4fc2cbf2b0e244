#!/bin/sh
# Regenerates seer's OCR-model conformance cases, PaddleOCR-VL (gen_paddleocr.py),
# dots.ocr (gen_dotsocr.py) and HunyuanOCR (gen_hunyuanocr.py): random-weight GGUF files,
# each family's Q8_0 LLM (llama.cpp's llama-quantize), and every expected/ folder
# (conformance-dump). case.json and prompt.txt are written by hand and kept.
# Usage: tools/conformance-ref/make_paddleocr_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_paddleocr_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for family in paddleocr dotsocr hunyuanocr; do
    gen() { "$py" "$here/gen_$family.py" --llama-cpp "$llama" "$@"; }
    gen --config "$family-f32" --out "$cases/$family-f32"
    # the Q8_0 case: F32 LLM from the generator (not kept), quantized as a user would
    gen --config "$family-q8src" --out "$tmp/$family"
    cp "$tmp/$family/mmproj.gguf" "$cases/$family-q8_0-twoimg/mmproj.gguf"
    "$quantize" "$tmp/$family/model.gguf" "$cases/$family-q8_0-twoimg/model.gguf" Q8_0 > "$tmp/quantize.log" 2>&1 ||
        { cat "$tmp/quantize.log"; exit 1; }
    for c in "$family-f32" "$family-q8_0-twoimg"; do
        rm -rf "$cases/$c/expected"
        "$dump" --case "$cases/$c"
    done
done
