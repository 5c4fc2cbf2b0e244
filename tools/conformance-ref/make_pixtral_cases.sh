#!/bin/sh
# Rebuilds the Pixtral / Mistral Small 3.1 conformance cases (pixtral-f32,
# mistral3-q8_0) under tests/conformance/cases: random-weight GGUFs
# (gen_pixtral.py), llama-quantize for the Q8_0 LLM, then conformance-dump
# against upstream llama.cpp (no correction needed). case.json and prompt.txt
# are kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_pixtral_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_pixtral_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
build=${2:-$llama/build-avx2}
py=${PYTHON:-python3}
dump=$here/build/conformance-dump
cases=$here/../../tests/conformance/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_pixtral.py" --llama-cpp "$llama" --config pixtral-f32 --out "$cases/pixtral-f32"
"$py" "$here/gen_pixtral.py" --llama-cpp "$llama" --config mistral3-q8src --mmproj-f16 --out "$tmp/m3"
"$build/bin/llama-quantize" "$tmp/m3/model.gguf" "$cases/mistral3-q8_0/model.gguf" Q8_0 2
cp "$tmp/m3/mmproj.gguf" "$cases/mistral3-q8_0/mmproj.gguf"

for c in pixtral-f32 mistral3-q8_0 text-long-q8_0; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
done
