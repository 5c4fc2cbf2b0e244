#!/bin/sh
# Rebuilds the Ministral 3 (arch mistral3) conformance cases under
# tests/conformance/cases: ministral3-f32 (YaRN + query temperature, the
# Mistral Small 3.1 style pixtral projector, one image) and
# text-ministral3-bias-f32 (the same graph with the optional biases and
# rope_freqs, text only), and text-llama-ropefreqs-f32 (arch llama with
# Llama 3.1's rope_freqs): random-weight GGUFs (gen_pixtral.py), then
# conformance-dump against upstream llama.cpp. case.json and prompt.txt are
# kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_ministral3_cases.sh LLAMA_CPP_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_ministral3_cases.sh LLAMA_CPP_DIR}
py=${PYTHON:-python3}
dump=$here/build/conformance-dump
cases=$here/../../tests/conformance/cases

"$py" "$here/gen_pixtral.py" --llama-cpp "$llama" --config ministral3-f32 --out "$cases/ministral3-f32"
"$py" "$here/gen_pixtral.py" --llama-cpp "$llama" --config ministral3-bias-f32 --out "$cases/text-ministral3-bias-f32"
"$py" "$here/gen_pixtral.py" --llama-cpp "$llama" --config llama-ropefreqs-f32 --out "$cases/text-llama-ropefreqs-f32"

for c in ministral3-f32 text-ministral3-bias-f32 text-llama-ropefreqs-f32; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
done
