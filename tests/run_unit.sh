#!/usr/bin/env bash
# Runs every unit-test binary; prints one line each and fails if any fails.
# TEST_RUNNER, when set, is put before each binary (qemu-user for a cross build).
set -u
dir=$1; shift
fail=0 n_pass=0 n_fail=0
run() { # NAME COMMAND...
  local name=$1 out start=$SECONDS; shift
  if out=$("$@" 2>&1); then
    echo "PASS $name ($((SECONDS - start)) s)"
    n_pass=$((n_pass + 1))
  else
    # the failed checks (file:line: ...) first: a test's stderr comes before its buffered stdout, out of the tail
    echo "FAIL $name ($((SECONDS - start)) s)"
    { echo "$out" | grep -E '^[^ ]+\.c:[0-9]+: ' | head -10; echo "$out" | grep -vE '^[^ ]+\.c:[0-9]+: ' | tail -20; } | sed 's/^/    /'
    fail=1 n_fail=$((n_fail + 1))
  fi
}
for t in "$@"; do
  # shellcheck disable=SC2086
  run "$(basename "$t")" ${TEST_RUNNER:-} "$t"
done
# The AVX2 level has two builds, plain and VNNI (seer/cpu.h): the kernel
# tests again with each, whichever this CPU picks by itself (=1 is the VEX
# code on a CPU with AVX-VNNI; on a CPU with AVX-512 VNNI but no AVX-VNNI it
# runs EVEX-encoded). A CPU with both runs the EVEX encoding too (=evex).
if [ "$(uname -m)" = x86_64 ] && [ -z "${TEST_RUNNER:-}" ]; then
  flags=" $(grep -m1 '^flags' /proc/cpuinfo) "
  builds="0 1"
  [[ $flags == *" avx_vnni "* && $flags == *" avx512_vnni "* ]] && builds="0 1 evex"
  for t in "$@"; do
    case $(basename "$t") in test_interleave | test_kernels_simd | test_simd_switch | test_decoder_kernels) ;; *) continue ;; esac
    for v in $builds; do run "$(basename "$t") (SEER_AVX2_VNNI=$v)" env SEER_AVX2_VNNI=$v "$t"; done
  done
fi
echo "unit: $n_pass passed, $n_fail failed"
exit $fail
