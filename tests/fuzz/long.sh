#!/usr/bin/env bash
# Long fuzzing at low priority, one target at a time on one core: until the
# given time, repeatedly runs the target with the fewest executions so far
# for SLICE seconds, keeping its corpus in tests/fuzz/out/<name>/corpus.
# Every run's count is appended to tests/fuzz/out/executions.tsv (date,
# target, executions, seconds, result); earlier totals (e.g. CI runs) are
# read from the same file. Stops at the first finding and prints it. The
# timeout is wall-clock time: 120 s, as a niced run on a busy machine can
# wait seconds for the CPU (10 s gave false timeouts on a 0.1 s unit).
#
#   tests/fuzz/long.sh UNTIL [SLICE] [TARGET...]   UNTIL: anything `date -d` reads
set -u
cd "$(dirname "$0")/../.."
until_s=$(date -d "$1" +%s) || exit 2
slice=${2:-300}; shift; shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls build-fuzz/fuzz_* | grep -v '\.d$' | xargs -n1 basename | sed 's/^fuzz_//'))
tsv=tests/fuzz/out/executions.tsv
mkdir -p tests/fuzz/out; touch "$tsv"
total() { awk -F'\t' -v t="$1" '$2 == t { s += $3 } END { print s + 0 }' "$tsv"; }
while :; do
  left=$(( until_s - $(date +%s) ))
  [ "$left" -gt 30 ] || break
  name=""; best=""
  for t in "${targets[@]}"; do
    n=$(total "$t")
    if [ -z "$best" ] || [ "$n" -lt "$best" ]; then best=$n; name=$t; fi
  done
  secs=$(( left < slice ? left : slice ))
  work=tests/fuzz/out/$name; mkdir -p "$work/corpus"
  extra=(); [ -d "tests/malformed/$name" ] && extra=("tests/malformed/$name")
  log=$work/long.log
  nice -n 19 "build-fuzz/fuzz_$name" -max_total_time="$secs" -timeout=120 -rss_limit_mb=4096 -max_len=65536 \
    -artifact_prefix="$work/" -print_final_stats=1 "$work/corpus" "tests/fuzz/corpus/$name" "${extra[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  result=ok; [ "$rc" -eq 0 ] || result=finding
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "${execs:-0}" "$secs" "$result" >>"$tsv"
  echo "$name: ${execs:-0} executions in ${secs}s ($result), total $(total "$name")"
  if [ "$rc" -ne 0 ]; then grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -8; exit 1; fi
done
