#!/bin/sh
# Rebuilds the LightOnOCR conformance case (lightonocr-f32-twoimg) under
# tests/conformance/cases: random-weight GGUFs (gen_lightonocr.py), then
# conformance-dump against upstream llama.cpp. case.json and prompt.txt are
# kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_lightonocr_cases.sh LLAMA_CPP_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_lightonocr_cases.sh LLAMA_CPP_DIR}
py=${PYTHON:-python3}
cases=$here/../../tests/conformance/cases

"$py" "$here/gen_lightonocr.py" --llama-cpp "$llama" --config lightonocr-f32 --out "$cases/lightonocr-f32-twoimg"
rm -rf "$cases/lightonocr-f32-twoimg/expected"
"$here/build/conformance-dump" --case "$cases/lightonocr-f32-twoimg"
