#!/usr/bin/env bash
# The conformance cases again at every SIMD level below this CPU's best
# (SEER_SIMD), and with the AMX kernels off (SEER_AMX=0) where the CPU has
# AMX: each level's kernels must match the golden data, not only the ones
# this machine would pick. `make test` runs the best level first.
#   tests/conformance/levels.sh CONFORMANCE_BIN CASE_DIR...
set -u
bin=${1:?usage: levels.sh CONFORMANCE_BIN CASE_DIR...}
shift
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
has() { [[ " $flags " == *" $1 "* ]]; }
runs=()
case $(uname -m) in
  x86_64)
    # the AVX2 level's two builds (seer/cpu.h): plain, and VNNI (EVEX-encoded
    # where the CPU has AVX-512 VNNI but no AVX-VNNI)
    if has avx512_vnni && has avx512bw && has avx512vl; then
      runs+=("SEER_SIMD=avx2 SEER_AVX2_VNNI=0" "SEER_SIMD=avx2 SEER_AVX2_VNNI=1")
    elif has avx_vnni; then
      runs+=("SEER_AVX2_VNNI=0")
    fi
    runs+=("SEER_SIMD=scalar")
    has amx_int8 && runs+=("SEER_AMX=0") ;;
  aarch64) runs+=("SEER_SIMD=scalar") ;;
esac
fail=0
for setting in "${runs[@]}"; do
  echo "-- $setting"
  # shellcheck disable=SC2086
  out=$(env $setting "$bin" "$@" 2>&1); rc=$?
  echo "$out" | grep -E '^FAIL|passed, ' | tail -20
  [ "$rc" = 0 ] || { echo "FAIL: conformance with $setting (exit $rc)"; fail=1; }
done
echo "conformance at the other levels (${runs[*]}): $([ $fail = 0 ] && echo all passed || echo FAILED)"
exit $fail
