#!/bin/sh
# Regenerates seer's low-bit i-quant cases (text-long-iq1_s, -iq1_m, -iq2_xxs, -iq2_xs,
# -iq2_s, -iq3_xxs, -iq3_s; the MoE cases text-qwen3moe-iq2_xxs and -iq3_xxs are made
# as described below): the F32 LLM make_qwen3vl_cases.sh calls q4src
# (gen_qwen3vl.py --config qwen3vl-q4src, seed 3134, 256 wide, FFN 768; not kept), an
# importance matrix from it (llama-imatrix on iquant_imatrix.txt, a text written for
# this, context 128), the LLM through llama-quantize with that matrix as each ftype, and
# every expected/ folder (conformance-dump). case.json and prompt.txt (the long prompt of
# text-long-iq4_xs) are written by hand and kept.
#
# The generator is deterministic: its F32 file through llama-quantize IQ4_XS is
# byte-identical to tests/conformance/cases/qwen3vl-iq4_xs-twoimg/model.gguf, and two runs
# of this script write the same model.gguf and expected/ files. llama-imatrix and
# llama-quantize run in the temporary folder on relative names, because llama-quantize
# stores the imatrix file name and its dataset name in the model (quantize.imatrix.file
# = imatrix.gguf, quantize.imatrix.dataset = iquant_imatrix.txt).
#
# ftype -> case (the block type llama.cpp's mix gives the attention and FFN matrices):
#   IQ1_S -> text-long-iq1_s, IQ1_M -> text-long-iq1_m, IQ2_XXS -> text-long-iq2_xxs,
#   IQ2_XS -> text-long-iq2_xs, IQ2_M -> text-long-iq2_s (ftype IQ2_S gives IQ2_XS blocks
#   with IQ3_S for attn_v/attn_output/token_embd; IQ2_M is the ftype of IQ2_S blocks),
#   IQ3_XXS -> text-long-iq3_xxs (its attn_q/attn_k are IQ2_S), IQ3_S -> text-long-iq3_s.
# IQ1_S, IQ1_M, IQ2_XXS, IQ2_XS and IQ2_S need an importance matrix; every ftype here
# gets the same one so that the files come from one recipe.
#
# The mixture-of-experts cases (text-qwen3moe-iq2_xxs, -iq3_xxs) are made the same way
# from a Qwen3-MoE F32 LLM whose rows are all 256 wide (gen_qwen3vl.py --config
# qwen3moe-iqsrc, seed 3164, n_embd 256, 16 experts of width 256, 4 used; not kept), with
# an importance matrix of its own (llama-imatrix on iquant_imatrix.txt, context 128;
# every expert of every layer gets rows), so that the routed experts (ffn_gate_exps,
# ffn_up_exps, ffn_down_exps) are i-quant blocks:
#   IQ2_XXS -> text-qwen3moe-iq2_xxs (attn_v Q4_K: llama.cpp's mix raises it for 8 or
#   more experts; token_embd Q2_K), IQ3_XXS -> text-qwen3moe-iq3_xxs (attn_q/attn_k
#   IQ2_S, attn_output/token_embd IQ3_S); output Q5_K in both.
#
# Usage: tools/conformance-ref/make_iquant_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]
#   LLAMA_BUILD_DIR defaults to LLAMA_CPP_DIR/build-avx2 and must be configured as
#   README.md says (shared libraries, no repacking, no OpenMP), with the targets mtmd,
#   llama, llama-quantize and llama-imatrix built.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
llama=${1:?usage: make_iquant_cases.sh LLAMA_CPP_DIR [LLAMA_BUILD_DIR]}
llama=$(cd "$llama" && pwd)
build=${2:-$llama/build-avx2}
build=$(cd "$build" && pwd)
py=/usr/bin/python3   # Debian's, with python3-numpy
cases=$repo/tests/conformance/cases
dump=$here/build/conformance-dump
[ -x "$dump" ] || "$here/build.sh" "$llama" "$build"
quantize=$(find "$build" -name llama-quantize -type f | head -n 1)
imatrix=$(find "$build" -name llama-imatrix -type f | head -n 1)
[ -n "$quantize" ] && [ -n "$imatrix" ] ||
    { echo "make_iquant_cases.sh: build llama-quantize and llama-imatrix in $build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the Qwen3-VL Q4_K_M case's F32 LLM (the mmproj is not needed here)
"$py" "$here/gen_qwen3vl.py" --llama-cpp "$llama" --config qwen3vl-q4src --llm "$tmp/q4src-f32.gguf"

cp "$here/iquant_imatrix.txt" "$tmp/iquant_imatrix.txt"
cd "$tmp"
# 9 chunks of 128 tokens; no perplexity pass (it does not change the matrix)
"$imatrix" -m q4src-f32.gguf -f iquant_imatrix.txt -o imatrix.gguf -c 128 -t 2 --no-ppl > imatrix.log 2>&1 ||
    { cat imatrix.log; exit 1; }

# quantize_cases SOURCE CASE_PREFIX FTYPE:SUFFIX...: SOURCE (with imatrix.gguf here) as
# each FTYPE into CASE_PREFIX-SUFFIX/model.gguf, then that case's expected/ folder
quantize_cases() {
    src=$1 prefix=$2
    shift 2
    for spec in "$@"; do
        c=$prefix-${spec#*:}
        "$quantize" --imatrix imatrix.gguf "$src" "$cases/$c/model.gguf" "${spec%%:*}" > quantize.log 2>&1 ||
            { cat quantize.log; exit 1; }
        "$dump" --case "$cases/$c"
    done
}
quantize_cases q4src-f32.gguf text-long IQ1_S:iq1_s IQ1_M:iq1_m IQ2_XXS:iq2_xxs IQ2_XS:iq2_xs IQ2_M:iq2_s \
    IQ3_XXS:iq3_xxs IQ3_S:iq3_s

# the mixture-of-experts cases: their own F32 LLM and importance matrix (same file names,
# so the names stored in the models are those of the dense cases)
mkdir moe
"$py" "$here/gen_qwen3vl.py" --llama-cpp "$llama" --config qwen3moe-iqsrc --llm "$tmp/moe/moe-f32.gguf"
cp "$here/iquant_imatrix.txt" moe/iquant_imatrix.txt
cd moe
"$imatrix" -m moe-f32.gguf -f iquant_imatrix.txt -o imatrix.gguf -c 128 -t 2 --no-ppl > imatrix.log 2>&1 ||
    { cat imatrix.log; exit 1; }
quantize_cases moe-f32.gguf text-qwen3moe IQ2_XXS:iq2_xxs IQ3_XXS:iq3_xxs
