#!/bin/sh
# Rebuilds the MobileVLM conformance cases (mobilevlm-ldp-f32,
# mobilevlm2-ldpv2-q8_0) under tests/conformance/cases: random-weight GGUFs
# (gen_mobilevlm.py), llama-quantize for the Q8_0 LLM, then conformance-dump
# built against a llama.cpp whose LLaVA CLIP graph puts the class token first
# and runs every stored block (see README.md, "The MobileVLM cases").
# case.json and prompt.txt are kept (written by hand); everything else is rewritten.
# Usage (from the repository root):
#   tools/conformance-ref/make_mobilevlm_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]
#   FIXED_DUMP: conformance-dump linked against the corrected libmtmd.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
llama=${1:?usage: make_mobilevlm_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]}
dump=${2:?usage: make_mobilevlm_cases.sh LLAMA_CPP_DIR FIXED_DUMP [LLAMA_BUILD_DIR]}
build=${3:-$llama/build-avx2}
py=${PYTHON:-python3}
cases=$here/../../tests/conformance/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$py" "$here/gen_mobilevlm.py" --llama-cpp "$llama" --config mobilevlm-ldp-f32 --out "$cases/mobilevlm-ldp-f32"
"$py" "$here/gen_mobilevlm.py" --llama-cpp "$llama" --config mobilevlm2-ldpv2-q8src --out "$tmp/q8"
"$build/bin/llama-quantize" "$tmp/q8/model.gguf" "$cases/mobilevlm2-ldpv2-q8_0/model.gguf" Q8_0 2
cp "$tmp/q8/mmproj.gguf" "$cases/mobilevlm2-ldpv2-q8_0/mmproj.gguf"

for c in mobilevlm-ldp-f32 mobilevlm2-ldpv2-q8_0; do
    rm -rf "$cases/$c/expected"
    "$dump" --case "$cases/$c"
    # meta.json records the corrections, as the shared LLaVA cases do
    "$py" -c 'import json, sys
p = sys.argv[1]; m = json.load(open(p))
m["llava_fixes"] = ["cls_first", "all_blocks"]
json.dump(m, open(p, "w"), indent=1); open(p, "a").write("\n")' "$cases/$c/expected/meta.json"
done
