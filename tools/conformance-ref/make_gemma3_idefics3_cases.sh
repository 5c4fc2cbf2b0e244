#!/bin/sh
# Rebuilds the generated conformance cases gemma3-f32, gemma3-q4_k and
# smolvlm-384-f32 under tests/conformance/cases from scratch: test images
# (gen_images.py),
# random-weight GGUFs (gen_gemma3.py, gen_idefics3.py), llama-quantize for the
# Q4_K_M LLM, then conformance-dump for the expected files. case.json and
# prompt.txt are kept (they are written by hand); everything else is rewritten.
# Needs python3 with numpy, a llama.cpp checkout and its build (llama-quantize,
# and the libraries conformance-dump was built against: see build.sh).
# Usage (from the repository root): tools/conformance-ref/make_gemma3_idefics3_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_gemma3_idefics3_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=${PYTHON:-python3}
cases=$here/../../tests/conformance/cases
dump=$here/build/conformance-dump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
"$py" "$here/gen_images.py" "$here/../../tests/conformance/images"

"$py" "$here/gen_gemma3.py" --llama-cpp "$llama" --preset f32 --out "$cases/gemma3-f32"
"$py" "$here/gen_gemma3.py" --llama-cpp "$llama" --preset q4k --mmproj-f16 --out "$tmp/q4k"
"$build/bin/llama-quantize" "$tmp/q4k/model.gguf" "$cases/gemma3-q4_k/model.gguf" Q4_K_M 2
cp "$tmp/q4k/mmproj.gguf" "$cases/gemma3-q4_k/mmproj.gguf"

"$py" "$here/gen_idefics3.py" --llama-cpp "$llama" --out "$cases/smolvlm-384-f32"

for c in gemma3-f32 gemma3-q4_k smolvlm-384-f32; do
    "$dump" --case "$cases/$c"
done
