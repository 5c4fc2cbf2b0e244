#!/usr/bin/env bash
# The bundled demo model answers the fixed held-out questions of tests/demo
# through seer itself (headless, greedy): at least 85% must be right.
# Usage outside `make e2e`: SEER=./seer tests/e2e/demo_model.sh [LLM MMPROJ]
set -u
cd "$(dirname "$0")/../.."
seer=${SEER:-./seer}
llm=${1:-assets/models/demo-llm.gguf}
mmproj=${2:-assets/models/demo-mmproj.gguf}
for f in "$llm" "$mmproj" tests/demo/questions.tsv; do
  [ -f "$f" ] || { echo "missing $f"; exit 1; }
done
if "$seer" -m "$llm" -p hi -n 1 2>&1 | grep -q "not built yet"; then
  echo "SKIP: seer's headless chat is not built yet"; exit 0
fi
DEMO_EVAL_VERBOSE=1 tests/demo/eval.sh "$seer" "$llm" "$mmproj" tests/demo 85
