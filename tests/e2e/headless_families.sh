#!/usr/bin/env bash
# Qwen3-VL (dense, MoE, two images), Qwen3.5 (dense, MoE with two images), Gemma 3, MiniCPM-V 2.6 / 2.5,
# GLM-4.6V-Flash, GLM-OCR (two images), PaddleOCR-VL, dots.ocr, HunyuanOCR (one image, two), Ministral 3
# (YaRN, query temperature, [THINK] tokens in the prompt) and LightOnOCR (two images) through the CLI as a user runs
# it (-m, --mmproj, --image, the prompt file with its markers, --raw): the
# prompt's token count and the 16 greedy tokens equal llama.cpp's
# (expected/tokens.json, greedy.json). This goes through the session's prompt
# path (image chunks borrowed from the attached images: Gemma 3's non-causal
# flag, Qwen3-VL's DeepStack-wide rows and M-RoPE positions, MiniCPM-V's
# overview and slices as separate chunks between their tags).
set -u
: "${SEER:?SEER must point at the seer binary}"
cases="$(cd "$(dirname "$0")/../conformance/cases" && pwd)"
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
checked=0
for c in qwen3vl-f32 qwen3vl-q4_k-twoimg qwen3vlmoe-f32 qwen35-f32 qwen35moe-q4_k-twoimg gemma3-f32 gemma3-q4_k minicpmv26-f32 minicpmv25-f32 \
         glm4v-f32 glmocr-q8_0-twoimg paddleocr-f32 paddleocr-q8_0-twoimg \
         dotsocr-f32 dotsocr-q8_0-twoimg hunyuanocr-f32 hunyuanocr-q8_0-twoimg \
         ministral3-f32 lightonocr-f32-twoimg; do
  d="$cases/$c"
  [ -f "$d/case.json" ] && [ -f "$d/expected/greedy.json" ] || continue
  mapfile -t args < <(python3 -c 'import json,sys
for i in json.load(open(sys.argv[1] + "/case.json"))["images"]: print("--image"); print(sys.argv[1] + "/" + i)' "$d")
  got=$("$SEER" -m "$d/model.gguf" --mmproj "$d/mmproj.gguf" "${args[@]}" --raw -f "$d/prompt.txt" -n 16 --temp 0 \
        --kv-type f32 --image-preproc llamacpp --json 2>"$tmp" |
        python3 -c 'import json,sys
ev=[json.loads(l) for l in sys.stdin]
print(*[e["n_tokens"] for e in ev if e["event"]=="prompt"], *[e["id"] for e in ev if e["event"]=="token"])')
  want=$(python3 -c 'import json,sys; d=sys.argv[1]
print(json.load(open(d+"/expected/tokens.json"))["n_tokens"], *json.load(open(d+"/expected/greedy.json"))["tokens"])' "$d")
  [ "$got" = "$want" ] || fail "$c: got '$got', want '$want' ($(cat "$tmp"))"
  checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || { echo "SKIP: no Qwen3-VL / Gemma 3 case files"; exit 0; }
echo "ok ($checked cases)"
