#!/usr/bin/env bash
# Runs each fuzz target for the given seconds on its seed corpus. Fails on the
# first crash, leak or sanitizer report (the reproducer is kept in tests/fuzz/out/).
set -u
secs=$1; shift
cd "$(dirname "$0")/../.."
fail=0
for bin in "$@"; do
  name=$(basename "$bin"); name=${name#fuzz_}
  corpus=tests/fuzz/corpus/$name
  work=tests/fuzz/out/$name
  mkdir -p "$work/corpus" "$corpus"
  log=$work/log.txt
  extra=()  # the malformed-input corpus seeds the parsers it was written for
  [ -d "tests/malformed/$name" ] && extra=("tests/malformed/$name")
  if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
       -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" "$corpus" "${extra[@]}" >"$log" 2>&1; then
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    echo "PASS fuzz/$name: ${execs:-?} executions in ${secs}s"
  else
    echo "FAIL fuzz/$name"; grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -5 | sed 's/^/    /'
    fail=1
  fi
done
exit $fail
