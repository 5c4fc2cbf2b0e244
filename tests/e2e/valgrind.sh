#!/usr/bin/env bash
# valgrind (memcheck, full leak check) on short runs: seer headless with an
# image (LLaVA layout, F32) and a quantized Qwen2-VL text model, then a few
# turns of one conversation through the session API, with and without random
# cancels. Any invalid read/write, use of uninitialised memory or definite /
# indirect leak fails. valgrind cannot decode AVX-512 (nor AVX-VNNI), so the runs use
# SEER_SIMD=avx2 SEER_AVX2_VNNI=0. "Possibly lost" is not counted: glibc keeps the TLS of
# joined threads in its stack cache and OpenBLAS never joins its threads.
# Skips when valgrind is absent or the binaries carry ASan (SANITIZE=1).
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
if ! command -v valgrind >/dev/null; then echo "SKIP valgrind: valgrind is not installed"; exit 0; fi
# (gcc links ASan's runtime as libasan.so, clang into the binary: look for its entry point)
if grep -qa __asan_init "$SEER"; then echo "SKIP valgrind: $SEER is an ASan build"; exit 0; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOOLS/make_tiny_model" --arch llama --type f32 --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null &&
  "$TOOLS/make_tiny_model" --arch qwen2vl --type q4_k --out "$tmp/qwen.gguf" >/dev/null || { echo "FAIL: make_tiny_model"; exit 1; }
img=assets/images/demo.png
fail=0
vg() {
  local name=$1; shift
  if SEER_SIMD=avx2 SEER_AVX2_VNNI=0 valgrind -q --error-exitcode=9 --leak-check=full --show-leak-kinds=definite,indirect \
       --errors-for-leak-kinds=definite,indirect --track-origins=yes "$@" >"$tmp/out" 2>"$tmp/err"; then
    echo "clean: $name"
  else
    echo "FAIL: valgrind $name (exit $?)"; grep -v '^soak: turn' "$tmp/err" | head -40; fail=1
  fi
}
vg "seer headless, image" "$SEER" -m "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" \
  -p "What is in the picture?" -n 8 --temp 0 -t 2
vg "seer headless, Q4_K qwen2vl, --json" "$SEER" -m "$tmp/qwen.gguf" -p "Hello there" -n 8 --seed 3 -t 2 --json
session=("$TOOLS/soak_session" --model "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" --threads 2 --turns 6 --image-every 2)
vg "6 session turns, 3 images" "${session[@]}"
vg "6 session turns, random cancels" "${session[@]}" --cancel 7
[ "$fail" -eq 0 ] && echo "PASS valgrind"
exit $fail
