#!/usr/bin/env bash
# Soak: a long conversation with images on a tiny model through the session
# API (tests/tools/soak_session), then a shorter one under valgrind (no leaks,
# no invalid reads), then loops of random cancels during encode, prefill and
# generation. Prints the numbers the hardening note asks for.
#
#   tools/soak/run.sh [TURNS] [VALGRIND_TURNS] [CANCEL_TURNS]   (default 500 20 300)
# BUILD=build-san soaks the sanitizer build. valgrind cannot run AVX-512
# code, so its run uses a build without those kernels in VG_BUILD (default
# /tmp/seer-build-vg, made here). "Possibly lost" blocks are not counted:
# glibc keeps the TLS of joined threads in its stack cache and OpenBLAS never
# joins its threads.
set -euo pipefail
cd "$(dirname "$0")/../.."
turns=${1:-500}; vg_turns=${2:-20}; cancel_turns=${3:-300}
BUILD=${BUILD:-build}; VG_BUILD=${VG_BUILD:-/tmp/seer-build-vg}
B=$BUILD/tests/tools
make -s "$B/soak_session" "$B/make_tiny_model" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$B/make_tiny_model" --arch llama --type f32 --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null
img=assets/images/demo.png
[ -f "$img" ] || img=tests/fuzz/corpus/image/seed.png
args=(--model "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" --threads 2)

echo "== $turns turns, an image every turn"
/usr/bin/time -f 'soak: peak RSS %M kB, wall %e s' "$B/soak_session" "${args[@]}" --turns "$turns" 2>&1 \
  | grep -v '^soak: turn [1-9]' || exit 1

if command -v valgrind >/dev/null; then
  make -s BUILD="$VG_BUILD" AVX512_FLAGS= "$VG_BUILD/tests/tools/soak_session" >/dev/null
  vg=(valgrind -q --error-exitcode=9 --leak-check=full --show-leak-kinds=definite,indirect
      --errors-for-leak-kinds=definite,indirect "$VG_BUILD/tests/tools/soak_session" "${args[@]}"
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
