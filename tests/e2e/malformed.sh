#!/usr/bin/env bash
# The malformed-input corpus (tests/malformed/, written by
# tools/malformed/make_corpus.py): every broken GGUF file and image gets its
# specific one-line error and exit code, and no crash or sanitizer report.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../malformed"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOOLS/make_tiny_model" --arch llama --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null || exit 1
good_image=../fuzz/corpus/image/seed.png

fail=0; n=0
while IFS=$'\t' read -r file kind code expect; do
  case "$file" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  case "$kind" in
    info)   cmd=("$SEER" info "$file") ;;
    model)  cmd=("$SEER" -m "$file" -p hi -n 1 --no-tui) ;;
    mmproj) cmd=("$SEER" encode --mmproj "$file" --image "$good_image" -o "$tmp/out.f32") ;;
    image)  cmd=("$SEER" encode --mmproj "$tmp/mmproj.gguf" --image "$file" -o "$tmp/out.f32") ;;
    *) echo "FAIL $file: unknown kind $kind"; fail=1; continue ;;
  esac
  timeout 60 "${cmd[@]}" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
  msg=$(cat "$tmp/stderr")
  lines=$(printf '%s' "$msg" | grep -c '')
  if [ "$rc" -ne "$code" ]; then
    echo "FAIL $file: exit $rc, want $code: $msg"; fail=1
  elif [ "$lines" -ne 1 ]; then
    echo "FAIL $file: $lines lines on stderr, want one: $msg"; fail=1
  elif ! grep -qiF -- "$expect" <<<"$msg"; then
    echo "FAIL $file: error does not mention '$expect': $msg"; fail=1
  elif grep -qE 'Sanitizer|runtime error|Segmentation' <<<"$msg"; then
    echo "FAIL $file: sanitizer report"; fail=1
  fi
done < expected.tsv
[ "$n" -ge 50 ] || { echo "FAIL: only $n corpus files"; fail=1; }
[ $fail -eq 0 ] && echo "all $n malformed inputs rejected with their own error"
exit $fail
