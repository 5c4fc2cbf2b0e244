#!/usr/bin/env bash
# The conformance cases again at every SIMD level below this CPU's best
# (SEER_SIMD), with the AMX kernels off (SEER_AMX=0) where the CPU has AMX,
# and each of those under several OpenBLAS kernel sets (chosen from the CPU,
# or forced by OPENBLAS_CORETYPE as some machines do): none of seer's
# products go through OpenBLAS since 2026-12-05 (before, the encoders' and
# F32 prompts' products did, summed in each kernel set's order), and these
# runs keep it so: a case must pass under every choice, so a pass that
# depends on the host shows on every host. `make test` runs the environment's own setting at
# the best level first; this script runs every other combination.
#   tests/conformance/levels.sh CONFORMANCE_BIN CASE_DIR...
set -u
bin=${1:?usage: levels.sh CONFORMANCE_BIN CASE_DIR...}
shift
flags=$(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null)
has() { [[ " $flags " == *" $1 "* ]]; }

# SIMD settings: "" is the CPU's best (what make test ran first).
levels=("")
case $(uname -m) in
  x86_64)
    # the AVX2 level's two builds (seer/cpu.h): plain, and VNNI (VEX on a CPU
    # with AVX-VNNI; EVEX where the CPU has only AVX-512 VNNI). A setting the
    # best level already is runs no second time: where AVX2 is the best level
    # (seer's AVX-512 level needs F, BW, VL, DQ and VNNI: util/cpu.c), plain
    # AVX2 without AVX-VNNI, VEX VNNI with it, is what make test ran first.
    if has avx512f && has avx512bw && has avx512vl && has avx512dq && has avx512_vnni; then
      levels+=("SEER_SIMD=avx2 SEER_AVX2_VNNI=0" "SEER_SIMD=avx2 SEER_AVX2_VNNI=1")
      # a CPU with both encodings runs the EVEX one too
      has avx_vnni && levels+=("SEER_SIMD=avx2 SEER_AVX2_VNNI=evex")
    elif has avx_vnni; then
      levels+=("SEER_SIMD=avx2 SEER_AVX2_VNNI=0")
    fi
    levels+=("SEER_SIMD=scalar")
    has amx_int8 && levels+=("SEER_AMX=0") ;;
  aarch64) levels+=("SEER_SIMD=scalar") ;;
esac

# OpenBLAS settings: its own choice (both variables unset), then the kernel
# sets a machine may force: Haswell (AVX2, what some hosts set), SkylakeX
# (AVX-512) and Prescott (SSE3) where the CPU runs them. "env" is the
# environment as given, already run at the best level by make test.
blas=("env" "self")
if [ "$(uname -m)" = x86_64 ]; then
  has avx2 && has fma && blas+=("Haswell")
  has avx512f && has avx512bw && blas+=("SkylakeX")
  blas+=("Prescott")
fi
# LEVELS_BLAS="self" (a list of the names above) runs only those.
if [ -n "${LEVELS_BLAS:-}" ]; then
  read -r -a blas <<<"$LEVELS_BLAS"
fi
# LEVELS_SANITIZE=1 (the sanitizer build, `make test SANITIZE=1`) runs each
# SIMD level whose code differs from what the sanitizers saw already, once,
# under OpenBLAS's own choice: the kernel sets change float order, not seer's
# memory use (and OpenBLAS is not instrumented); the best level ran in the
# tier's first conformance pass; the VNNI builds are vec_dot_avx2.c compiled
# again with other dot instructions (same loads and stores as the plain AVX2
# build, and the unit tier runs the kernel tests under each of them). That
# is 2 runs instead of 5 on an AVX-512 host (about 95 s of the sanitized
# tier on a Zen 5 VM); on an AVX2-only one, scalar alone.
if [ "${LEVELS_SANITIZE:-}" = 1 ]; then
  blas=("self")
  kept=()
  for level in "${levels[@]}"; do
    [ -z "$level" ] || [[ "$level" == *"SEER_AVX2_VNNI="[1e]* ]] || kept+=("$level")
  done
  levels=("${kept[@]}")
fi
blas_env() { # NAME -> the env(1) arguments for it
  case $1 in
    env) ;;
    self) echo "-u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE" ;;
    *) echo "-u OPENBLAS_L2_SIZE OPENBLAS_CORETYPE=$1" ;;
  esac
}

fail=0 runs=0
for level in "${levels[@]}"; do
  for b in "${blas[@]}"; do
    [ -z "$level" ] && [ "$b" = env ] && continue
    # The VNNI builds compute the plain AVX2 build's integers (bit-identical
    # results), so the kernel sets, which only reorder OpenBLAS's float sums,
    # are crossed with the plain one and only its own choice runs with them.
    [[ "$level" == *"SEER_AVX2_VNNI="[1e]* ]] && [ "$b" != self ] && continue
    # "env" equals one of the named choices when the environment forces it
    [ "$b" = env ] && [ -n "${OPENBLAS_CORETYPE:-}" ] && continue
    [ "$b" = env ] && [ -z "${OPENBLAS_CORETYPE:-}${OPENBLAS_L2_SIZE:-}" ] && continue
    name="${level:-best level} | OpenBLAS $b"
    # shellcheck disable=SC2046,SC2086
    out=$(env $(blas_env "$b") $level "$bin" "$@" 2>&1); rc=$?
    runs=$((runs + 1))
    echo "-- $name: $(echo "$out" | grep -E 'passed, ' | tail -1)"
    echo "$out" | grep -E '^FAIL' | head -20
    [ "$rc" = 0 ] || { echo "FAIL: conformance with $name (exit $rc)"; fail=1; }
  done
done
echo "conformance at the other levels and OpenBLAS kernel sets ($runs runs): $([ $fail = 0 ] && echo all passed || echo FAILED)"
exit $fail
