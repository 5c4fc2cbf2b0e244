#!/usr/bin/env bash
# seer's tokenizer gives the demo model exactly the ids it was trained on: for
# every held-out question, the text after the image (question, end of turn,
# assistant prefix) tokenizes to the ids the Python trainer's BPE produced.
set -u
cd "$(dirname "$0")/../.."
seer=${SEER:-./seer}
llm=${DEMO_LLM:-assets/models/demo-llm.gguf}
[ -f "$llm" ] || { echo "missing $llm"; exit 1; }
bad=0 n=0
while IFS=$'\t' read -r image qtype question answer ids; do
  [ -n "$image" ] || continue
  text=$(printf '%s<|im_end|>\n<|im_start|>assistant\nX' "$question"); text=${text%X}
  got=$("$seer" tokenize -m "$llm" -p "$text") || { echo "seer tokenize failed"; exit 1; }
  n=$((n + 1))
  if [ "$(echo $got)" != "$(echo $ids)" ]; then
    echo "mismatch for \"$question\": seer [$got], trainer [$ids]"; bad=$((bad + 1))
  fi
done < tests/demo/questions.tsv
# The user-turn prefix before the image as well.
pre=$(printf '<|im_start|>user\nX'); pre=${pre%X}
"$seer" tokenize -m "$llm" -p "$pre" | grep -qx "$(cat tests/demo/prefix_ids.txt)" || { echo "prefix mismatch"; bad=$((bad + 1)); }
echo "$n questions, $bad mismatches"
[ "$n" -ge 50 ] && [ "$bad" -eq 0 ]
