#!/usr/bin/env bash
# Runs every unit-test binary; prints one line each and fails if any fails.
# TEST_RUNNER, when set, is put before each binary (qemu-user for a cross build).
set -u
dir=$1; shift
fail=0 n_pass=0 n_fail=0
for t in "$@"; do
  name=$(basename "$t")
  if out=$(${TEST_RUNNER:-} "$t" 2>&1); then
    echo "PASS $name"
    n_pass=$((n_pass + 1))
  else
    echo "FAIL $name"; echo "$out" | tail -20 | sed 's/^/    /'
    fail=1 n_fail=$((n_fail + 1))
  fi
done
echo "unit: $n_pass passed, $n_fail failed"
exit $fail
