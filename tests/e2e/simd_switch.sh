#!/usr/bin/env bash
# SEER_SIMD: a bad value is a one-line error naming the variable (exit 2);
# each valid level answers, and greedy replies on the demo model agree
# across levels (the kernels differ only in rounding).
set -u
SEER=${SEER:?SEER must point at the seer binary}
cd "$(dirname "$0")/../.."
fail=0
err() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

SEER_SIMD=avx3 "$SEER" info assets/models/demo-llm.gguf >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] || err "SEER_SIMD=avx3: exit $rc, want 2"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'SEER_SIMD=avx3 is not one of scalar, avx2, avx512' "$tmp/err" ||
  err "SEER_SIMD=avx3: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && err "SEER_SIMD=avx3 still ran"

ask() {
  SEER_SIMD=$1 "$SEER" -m assets/models/demo-llm.gguf --mmproj assets/models/demo-mmproj.gguf \
    --image assets/images/demo.png -p "what colour is the circle?" -n 12 --temp 0 -t 1 --json 2>"$tmp/err.$1" |
    python3 -c 'import json,sys; print(" ".join(str(e["id"]) for e in map(json.loads, sys.stdin) if e["event"] == "token"))'
}
ref=$(ask "") || err "default level: $(cat "$tmp/err.")"
[ -n "$ref" ] || err "default level: no tokens"
for level in scalar avx2 avx512; do
  got=$(ask $level) || { err "SEER_SIMD=$level: $(cat "$tmp/err.$level")"; continue; }
  [ "$got" = "$ref" ] || err "SEER_SIMD=$level: tokens [$got], default level gave [$ref]"
done
# Below AVX-512 no AMX tile kernel runs (they did for the F16 encoders on
# AMX hosts under SEER_SIMD=scalar), and seer info names none.
for level in scalar avx2; do
  line=$(SEER_SIMD=$level "$SEER" info assets/models/demo-llm.gguf 2>/dev/null | grep "^kernels here")
  [ -n "$line" ] || err "SEER_SIMD=$level: seer info has no 'kernels here' line"
  case $line in *AMX*) err "SEER_SIMD=$level: seer info still names AMX: $line" ;; esac
done
exit $fail
