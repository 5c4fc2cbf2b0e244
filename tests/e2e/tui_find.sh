#!/usr/bin/env bash
# /find in a real terminal: without an index it says how to get one; /index
# FILE sets it; /find TEXT lists the best images of the index (the bundled
# search model, scenes it never saw) with the described scene first, their
# numbered thumbnails in the preview pane (the search runs on the engine
# thread); typing its number attaches that image (the worker encodes it, the
# preview and /images show it); a line that is not a number leaves the
# results and goes on as a message.
. "$(dirname "$0")/tui_lib.bash"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
M=${SEARCH_MODELS:-$ROOT/assets/models}
/usr/bin/python3 -c 'import numpy, PIL' 2>/dev/null || { echo "SKIP: /usr/bin/python3 lacks numpy or PIL"; exit 0; }
/usr/bin/python3 "$ROOT/tools/embed-model/make_scenes.py" --out "$T/scenes" --n 12 --seed 2026 || fail "make_scenes"
"$SEER" index "$T/scenes" -o "$T/scenes.idx" -m "$M/search-llm.gguf" --mmproj "$M/search-mmproj.gguf" \
  --mv-proj "$M/search-mvproj.gguf" -t 1 >/dev/null || fail "seer index"
want=$(grep scene-007 "$T/scenes/queries.tsv" | cut -f2)
make_model
start 150 40 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 4 --temp 0
wait_log '^loaded' 15
type_line "/find a red circle"
wait_screen "no image index: start with --index FILE or type /index FILE"
type_line "/index $T/scenes.idx"
wait_screen "/find searches $T/scenes.idx"
type_line "/find $want"
wait_screen "type a number (1-5) to attach that image" 20
screen | grep -qE "1\. [0-9.-]+  $T/scenes/scene-007\.png" || fail "the described scene is not the first result"
[ "$(screen | grep -cE '[1-5]\. [0-9.-]+  /')" = 5 ] || fail "not five results"
screen | grep -q "Found: type 1-5 to attach" || fail "no thumbnails of the results in the preview pane"
type_line "1"
wait_log '^image [0-9]+ tokens' 15 1
wait_screen "Image 1/1"
type_line "/images"
wait_screen "1. $T/scenes/scene-007.png (112×112"
# After results, a line that is not a number is a message as usual.
type_line "/find a blue square"
wait_screen "type a number" 20
type_line "hello"
wait_log '^prefill' 20 1
[ "$(grep -cE '^image [0-9]+ tokens' "$LOG")" = 1 ] || fail "a message after /find attached an image"
stop_seer

# --index on the command line.
start 150 40 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 4 --temp 0 --index "$T/scenes.idx"
wait_log '^loaded' 15
type_line "/index"
wait_screen "/find searches $T/scenes.idx"
type_line "/find $want"
wait_screen "type a number" 20
screen | grep -qE "1\. [0-9.-]+  $T/scenes/scene-007\.png" || fail "--index: the described scene is not first"
type_line "/index $T/missing.idx"
type_line "/find anything"
wait_screen "cannot open $T/missing.idx"
echo "ok"
