#!/usr/bin/env bash
# /ocr in the TUI with the PaddleOCR-VL conformance model (paddleocr-f32) on
# the bundled scanned receipt (tests/data/ocr-receipt.png): the model's own
# prompt ("OCR:") goes in as the user turn with the attached image and the
# reply is greedy although the session samples at --temp 0.9 (its tokens
# are those of a headless greedy run of the same turn); /ocr again reads the
# image once more (attached again: a second image prefill); a free question
# afterwards samples again; after /clear, /ocr without an image says so.
. "$(dirname "$0")/tui_lib.bash"
dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/paddleocr-f32"
page="$(cd "$(dirname "$0")/../data" && pwd)/ocr-receipt.png"
[ -f "$dir/model.gguf" ] || { echo "SKIP: no paddleocr-f32 case"; exit 0; }

# the greedy reply of that turn, headless
want=$("$SEER" -m "$dir/model.gguf" --mmproj "$dir/mmproj.gguf" --image "$page" -p "OCR:" -n 12 --temp 0 --json 2>/dev/null |
       python3 -c 'import json,sys; print(*[e["id"] for e in map(json.loads, sys.stdin) if e["event"]=="token"])')
[ -n "$want" ] || fail "no headless greedy tokens"

start 120 36 -m "$dir/model.gguf" --mmproj "$dir/mmproj.gguf" "$page" -n 12 --temp 0.9 --seed 7
wait_log '^loaded' 20
wait_log '^image [0-9]+ tokens' 20
type_line "/ocr"
wait_log '^done' 60 1
screen | grep -qF "› OCR:" || fail "the OCR prompt is not the user turn"
got=$(grep -E '^token' "$LOG" | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] || fail "/ocr reply '$got' is not the greedy one '$want'"

type_line "/ocr"
wait_log '^done' 60 2
[ "$(grep -cE '^image [0-9]+ tokens' "$LOG")" -eq 2 ] || fail "the second /ocr did not attach the image again"
p2=$(grep -E '^prefill' "$LOG" | sed -n 2p | cut -d' ' -f2)
[ "$p2" -gt 40 ] || fail "second /ocr prefilled $p2 rows: no image in it"

# sampling again for a free question (the greedy turn did not stick)
type_line "Read it again, slowly."
wait_log '^done' 60 3
wait_screen "temp 0.9 k 40" 5

type_line "/clear"
wait_log '^cleared' 5
type_line "/ocr"
wait_screen "/ocr reads the attached image: /image PATH first"
type_line "/quit"
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
