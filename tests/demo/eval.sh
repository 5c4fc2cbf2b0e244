#!/usr/bin/env bash
# Asks the demo model every question of a held-out set THROUGH SEER (headless,
# greedy) and scores the answers.
#   tests/demo/eval.sh SEER LLM.gguf MMPROJ.gguf SET_DIR [MIN_PERCENT]
# SET_DIR holds the images and questions.tsv (image, type, question, answer,
# token ids; see tools/demo-model/make_heldout.py). Prints accuracy per
# question type and overall; exits 1 when overall accuracy < MIN_PERCENT.
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 SEER LLM.gguf MMPROJ.gguf SET_DIR [MIN_PERCENT]" >&2
  exit 2
fi
seer=$1 llm=$2 mmproj=$3 set_dir=$4 min=${5:-0}
verbose=${DEMO_EVAL_VERBOSE:-0}
# DEMO_EVAL_EVERY=N asks only every Nth question (a sanitizer build checks
# memory, not accuracy, at several times the cost per run)
every=${DEMO_EVAL_EVERY:-1}

# "Top left." / "top left" / " Top left.\n" all compare equal.
norm() { tr '[:upper:]' '[:lower:]' | tr -d '\r' | head -n 1 | sed -e 's/[[:space:].!]*$//' -e 's/^[[:space:]]*//'; }

declare -A ok_by total_by
ok=0 total=0
while IFS=$'\t' read -r image qtype question answer _ids; do
  [ -n "$image" ] || continue
  line=$((${line:-0} + 1))
  [ $(((line - 1) % every)) -eq 0 ] || continue
  reply=$("$seer" -m "$llm" --mmproj "$mmproj" --image "$set_dir/$image" -p "$question" \
          --temp 0 -n 8 -t 1 2>/dev/null)
  got=$(printf '%s' "$reply" | norm)
  want=$(printf '%s' "$answer" | norm)
  total=$((total + 1)); total_by[$qtype]=$(( ${total_by[$qtype]:-0} + 1 ))
  if [ "$got" = "$want" ]; then
    ok=$((ok + 1)); ok_by[$qtype]=$(( ${ok_by[$qtype]:-0} + 1 ))
  elif [ "$verbose" = 1 ]; then
    echo "  wrong: $image \"$question\" -> \"$got\" (want \"$want\")"
  fi
done < "$set_dir/questions.tsv"

if [ "$total" -eq 0 ]; then echo "no questions in $set_dir/questions.tsv"; exit 1; fi
for t in $(printf '%s\n' "${!total_by[@]}" | sort); do
  printf '  %-15s %3d/%-3d\n' "$t" "${ok_by[$t]:-0}" "${total_by[$t]}"
done
echo "accuracy $ok/$total = $(awk "BEGIN{printf \"%.1f\", 100*$ok/$total}")% (minimum $min%)"
[ $((100 * ok)) -ge $((min * total)) ]
