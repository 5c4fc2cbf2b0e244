#!/usr/bin/env bash
# A newcomer's first questions: every question the README suggests for
# `make run` (read from the README itself), plus a count and a position,
# asked through seer on the bundled model and image (headless, greedy) with
# the answers checked, and both spellings of "colour" about the star and
# about a circle that is not there ("There is no circle.": the weights
# bundled before stage 4 of tools/demo-model answered "Bottom." / "Purple.").
# A README question without an expected answer here fails too, so the
# README cannot suggest a question nobody checked.
# Usage outside `make e2e`: SEER=./seer tests/e2e/demo_readme_questions.sh [LLM MMPROJ IMAGE]
set -u
cd "$(dirname "$0")/../.."
seer=${SEER:-./seer}
llm=${1:-assets/models/demo-llm.gguf}
mmproj=${2:-assets/models/demo-mmproj.gguf}
image=${3:-assets/images/demo.png}
for f in "$llm" "$mmproj" "$image" README.md; do
  [ -f "$f" ] || { echo "missing $f"; exit 1; }
done

# assets/images/demo.png: a purple square (top left), a pink cross (top
# right) and a yellow star (bottom left).
declare -A want=(
  ["What shapes are in the image?"]="a purple square, a pink cross and a yellow star"
  ["What color is the star?"]="yellow"
  ["What colour is the star?"]="yellow"
  ["What colour is the circle?"]="there is no circle"
  ["What color is the circle?"]="there is no circle"
  ["Is there a circle?"]="no"
  ["How many shapes are there?"]="3"
  ["Where is the pink cross?"]="top right"
)

# The README's suggestions: the quoted questions in the paragraph that says
# "type a question" (joined across line breaks).
readme=$(tr '\n' ' ' < README.md | grep -o 'type a question ([^)]*)' | grep -o '"[^"]*?"' | tr -d '"')
[ -n "$readme" ] || { echo "no suggested questions found in README.md"; exit 1; }

norm() { tr '[:upper:]' '[:lower:]' | tr -d '\r' | head -n 1 | sed -e 's/[[:space:].!]*$//' -e 's/^[[:space:]]*//'; }
fail=0 n=0
ask() {
  local q=$1 got
  if [ -z "${want[$q]+set}" ]; then
    echo "README suggests \"$q\" but this test has no expected answer for it"; fail=1; return
  fi
  got=$("$seer" -m "$llm" --mmproj "$mmproj" --image "$image" -p "$q" --temp 0 -n 24 -t 1 2>/dev/null | norm)
  n=$((n + 1))
  if [ "$got" != "${want[$q]}" ]; then
    echo "\"$q\" -> \"$got\" (want \"${want[$q]}\")"; fail=1
  fi
}
while IFS= read -r q; do ask "$q"; done <<< "$(printf '%s\n' "$readme" | sed -e 's/  */ /g')"
for q in "How many shapes are there?" "Where is the pink cross?" "What colour is the star?" \
         "What colour is the circle?" "What color is the circle?"; do
  # once each, whether or not the README suggests it too
  printf '%s\n' "$readme" | sed -e 's/  */ /g' | grep -qxF "$q" || ask "$q"
done
[ "$fail" = 0 ] && echo "$n questions answered right"
exit $fail
