#!/usr/bin/env bash
# Soak: a long conversation with images on a tiny model through the session
# API (tests/tools/soak_session), then a shorter one under valgrind (no leaks,
# no invalid reads), then loops of random cancels during encode, prefill and
# generation. Prints the numbers the hardening note asks for.
#
#   tools/soak/run.sh [TURNS] [VALGRIND_TURNS] [CANCEL_TURNS]   (default 500 20 300)
# THREADS=N sets the worker threads (default 2); MODEL=LLM.gguf MMPROJ=P.gguf
# soak another model (default: a tiny F32 LLaVA-layout model written here).
# BUILD=build-san soaks the sanitizer build (its valgrind part is skipped:
# ASan and valgrind do not mix). valgrind cannot run AVX-512 code, so its run
# uses SEER_SIMD=avx2. "Possibly lost" blocks are not counted:
# glibc keeps the TLS of joined threads in its stack cache and OpenBLAS never
# joins its threads.
set -euo pipefail
cd "$(dirname "$0")/../.."
turns=${1:-500}; vg_turns=${2:-20}; cancel_turns=${3:-300}
BUILD=${BUILD:-build}; THREADS=${THREADS:-2}
B=$BUILD/tests/tools
make -s SANITIZE="$([ "$BUILD" = build-san ] && echo 1 || echo 0)" "$B/soak_session" "$B/make_tiny_model" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -z "${MODEL:-}" ]; then
  "$B/make_tiny_model" --arch llama --type f32 --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null
  MODEL=$tmp/llm.gguf; MMPROJ=$tmp/mmproj.gguf
fi
img=assets/images/demo.png
[ -f "$img" ] || img=tests/fuzz/corpus/image/seed.png
args=(--model "$MODEL" --mmproj "${MMPROJ:?MMPROJ must go with MODEL}" --image "$img" --threads "$THREADS")

echo "== $turns turns, an image every turn"
/usr/bin/time -f 'soak: peak RSS %M kB, wall %e s' "$B/soak_session" "${args[@]}" --turns "$turns" 2>&1 \
  | grep -v '^soak: turn [1-9]' || exit 1

if command -v valgrind >/dev/null && [ "$BUILD" != build-san ]; then
  vg=(env SEER_SIMD=avx2 valgrind -q --error-exitcode=9 --leak-check=full --show-leak-kinds=definite,indirect
      --errors-for-leak-kinds=definite,indirect "$B/soak_session" "${args[@]}"
      --turns "$vg_turns" --image-every 2)
  for extra in "" "--cancel 7"; do
    echo "== $vg_turns turns under valgrind (memcheck, full leak check) $extra"
    # shellcheck disable=SC2086
    if "${vg[@]}" $extra >"$tmp/vg.out" 2>"$tmp/vg.err"; then
      echo "valgrind: clean: $(grep -v '^soak: turn' "$tmp/vg.out" | head -1)"
    else
      echo "valgrind: FAILED"; head -60 "$tmp/vg.err"; exit 1
    fi
  done
fi

echo "== $cancel_turns turns with random cancels (3 seeds)"
for seed in 1 2 3; do
  "$B/soak_session" "${args[@]}" --turns "$cancel_turns" --image-every 3 --cancel "$seed" | grep -v '^soak: turn' || exit 1
done
echo "soak: PASS"
