#!/usr/bin/env bash
# Runs every end-to-end script in tests/e2e (each gets $SEER, the binary under test,
# and $TOOLS, the folder of built tests/tools programs).
set -u
cd "$(dirname "$0")/.."
fail=0 n_pass=0 n_fail=0
for t in tests/e2e/*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  start=$SECONDS
  if out=$(bash "$t" 2>&1); then
    echo "PASS e2e/$name ($((SECONDS - start)) s)"
    n_pass=$((n_pass + 1))
  else
    echo "FAIL e2e/$name ($((SECONDS - start)) s)"
    # the first lines name the first failure (often the cause), the last the rest
    if [ "$(printf '%s\n' "$out" | wc -l)" -gt 40 ]; then
      { printf '%s\n' "$out" | head -12; echo "[...]"; printf '%s\n' "$out" | tail -26; } | sed 's/^/    /'
    else
      printf '%s\n' "$out" | sed 's/^/    /'
    fi
    fail=1 n_fail=$((n_fail + 1))
  fi
done
echo "end-to-end: $n_pass passed, $n_fail failed"
exit $fail
