#!/bin/sh
# Regenerates seer's GLM-4.1V / 4.6V-Flash and GLM-OCR conformance cases from scratch:
# random-weight GGUF files (gen_glm4v.py), the Q8_0 GLM-OCR LLM (llama.cpp's llama-quantize),
# and every expected/ folder (conformance-dump). case.json and prompt.txt are written by
# hand and kept; the test images come from gen_images.py (make_qwen3vl_cases.sh writes them).
# Usage: tools/conformance-ref/make_glm4v_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_glm4v_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen() { "$py" "$here/gen_glm4v.py" --llama-cpp "$llama" "$@"; }
gen --config glm4v-f32 --llm "$cases/glm4v-f32/model.gguf" --mmproj "$cases/glm4v-f32/mmproj.gguf"
gen --config glm4-text-f32 --llm "$cases/text-glm4-f32/model.gguf"
# GLM-OCR in Q8_0: F32 LLM from the generator (not kept), quantized as a user would
gen --config glmocr-q8src --llm "$tmp/ocr-f32.gguf" --mmproj "$cases/glmocr-q8_0-twoimg/mmproj.gguf"
"$quantize" "$tmp/ocr-f32.gguf" "$cases/glmocr-q8_0-twoimg/model.gguf" Q8_0 > "$tmp/quantize.log" 2>&1 ||
    { cat "$tmp/quantize.log"; exit 1; }

for c in glm4v-f32 text-glm4-f32 glmocr-q8_0-twoimg; do
    "$dump" --case "$cases/$c"
done
