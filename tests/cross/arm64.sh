#!/usr/bin/env bash
# The aarch64 lane (issue 26): installs Debian's cross compiler, qemu-user
# and the arm64 -dev packages of ./setup's libraries, cross-builds seer, the
# unit tests and the conformance runner (-Werror, `make CROSS=aarch64`),
# then runs them under qemu-aarch64 (its default CPU has dotprod, so the
# NEON kernels run). Emulation is slow: all of it took over 30 minutes on a
# busy 2-core machine, so CI leaves out the slowest cases (lists below);
# ARM64_TESTS=all runs everything. Ends with one line
# "arm64: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
lane_start=$(date +%s)

as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
# The -dev packages ./setup installs for this machine, for arm64.
dev_packages=$(sed -n 's/^PACKAGES="\(.*\)"$/\1/p' setup | tr ' ' '\n' | grep -- '-dev$' | sed 's/$/:arm64/')
if [ -z "$dev_packages" ]; then
    echo "arm64: cannot read the package list from ./setup"
    exit 1
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $as_root dpkg --add-architecture arm64 || exit 1
fi
# env, not an exported variable: sudo resets the environment.
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null || exit 1
# shellcheck disable=SC2086 # one word per package
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc-aarch64-linux-gnu qemu-user-static \
    $dev_packages >/dev/null || exit 1
echo "== arm64 packages: $(($(date +%s) - lane_start)) s"

# ARM64_BUILD: another build folder (a developer's own, beside others').
build=${ARM64_BUILD:-build-aarch64}
logs=$build/lane
mkdir -p "$logs"
# Each binary under qemu gets a time limit: a hang (emulated threads that
# never meet) must end the lane with a FAIL, not hold CI until its deadline.
cross() { make CROSS=aarch64 BUILD="$build" SEER="$build/seer" TEST_RUNNER="timeout ${ARM64_TIMEOUT:-900} qemu-aarch64-static" "$@"; }
start=$(date +%s)
if ! cross -j2 tests-build >"$logs/build.log" 2>&1; then
    tail -30 "$logs/build.log"
    echo "arm64: the cross build failed (whole log: $logs/build.log)"
    exit 1
fi
echo "== arm64 cross build: $(($(date +%s) - start)) s"

# Under emulation CI leaves out the slowest conformance cases (45 s to over
# 5 min each on a busy 2-core machine, against 1-30 s for the others): every
# other case, text-only and with images, F32, Q8_0 and Q4_K, runs. The four
# slowest unit tests go too: three check again what the conformance cases
# check (whole pipelines, the encoders), one is HF preprocessing.
case_skip="lfm2vl-tiled-q4_k smolvlm-384-f32 llava16-f32 qwen25vl-f32 qwen25vl-f32-twoimg qwen2vl-f32 smolvlm-f32"
# test_worker's cancel bound is timing-based (a reply must stop within a few
# tokens of the cancel): under emulation the worker thread can run ahead of
# the test thread reading its events, and it flaked once in four runs.
unit_skip="test_mtmd_eval test_vision_conformance test_mtmd_encode test_image_original test_worker"
if [ "${ARM64_TESTS:-}" = all ]; then
    case_skip="" unit_skip=""
fi
keep() { case " $1 " in *" $2 "*) return 1 ;; *) return 0 ;; esac } # keep SKIP-LIST NAME
cases=""
for c in tests/conformance/cases/*/ "${CONFORMANCE_DIR:-../shared/conformance}"/cases/*/; do
    [ -f "$c/case.json" ] && keep "$case_skip" "$(basename "$c")" && cases="$cases ${c%/}"
done
if [ -z "$cases" ]; then
    echo "arm64: no conformance cases found (CONFORMANCE_DIR=${CONFORMANCE_DIR:-../shared/conformance})"
    exit 1
fi
unit=""
for t in tests/unit/test_*.c; do
    keep "$unit_skip" "$(basename "$t" .c)" && unit="$unit $build/tests/$(basename "$t" .c)"
done

passed=0 failed=0 status=0
run_tier() { # run_tier NAME MAKE-ARGS...: one tier under qemu, its PASS/FAIL lines counted
    local name=$1 log="$logs/$1.log" start
    shift
    start=$(date +%s)
    cross "$@" 2>&1 | tee "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    passed=$((passed + $(grep -c '^PASS ' "$log"))) failed=$((failed + $(grep -c '^FAIL ' "$log")))
    echo "== arm64 $name (qemu): $(($(date +%s) - start)) s"
}
run_tier unit unit UNIT_BIN="$unit"
run_tier conformance conformance CONFORMANCE_DIRS="$cases"
echo "== arm64 lane: $(($(date +%s) - lane_start)) s"
echo "arm64: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
