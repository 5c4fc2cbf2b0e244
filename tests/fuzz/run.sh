#!/usr/bin/env bash
# Runs each fuzz target for the given seconds on its seed corpus, FUZZ_JOBS
# targets at a time (default: one per CPU; each target is one process). Fails
# on any crash, leak or sanitizer report (the reproducer is kept in
# tests/fuzz/out/).
set -u
secs=$1; shift
cd "$(dirname "$0")/../.."
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

fuzz_one() { # BIN: runs one target, prints its one-line result (and the report on failure)
  local bin=$1 name corpus work log execs
  name=$(basename "$bin"); name=${name#fuzz_}
  corpus=tests/fuzz/corpus/$name
  work=tests/fuzz/out/$name
  mkdir -p "$work/corpus" "$corpus"
  log=$work/log.txt
  local extra=()  # the malformed-input corpus seeds the parsers it was written for
  [ -d "tests/malformed/$name" ] && extra=("tests/malformed/$name")
  if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
       -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" "$corpus" "${extra[@]}" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "PASS fuzz/$name: ${execs:-?} executions in ${secs}s"
  else
    echo "FAIL fuzz/$name"; grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
    return 1
  fi
}

# each target's result goes to its own file, printed in the targets' order
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
i=0
for bin in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_one "$bin" >"$results/$(printf %03d $i)" 2>&1 &
  i=$((i + 1))
done
wait
cat "$results"/* 2>/dev/null
! grep -q '^FAIL ' "$results"/* 2>/dev/null
