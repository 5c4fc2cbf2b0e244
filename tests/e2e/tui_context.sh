#!/usr/bin/env bash
# A small context fills up: seer says so, shifts out the oldest turns (the
# system prompt stays) and keeps answering; /images N picks the preview; a
# long paste is taken at once and refused with its size.
. "$(dirname "$0")/tui_lib.bash"
make_model
make_image "$T/a.ppm" 16 16
make_image "$T/b.ppm" 24 16
start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -c 160 -n 24 --temp 0 --system "Be brief." "$T/a.ppm" "$T/b.ppm"
wait_log '^image' 15 2
wait_screen "Image 2/2 b.ppm"
type_line "/images 1"
wait_screen "Image 1/2 a.ppm"
for i in 1 2 3 4 5 6; do
  type_line "question number $i"
  wait_log '^done' 30 $i
done
grep -qE '^prefill .* shifted [1-9]' "$LOG" || fail "no turn was shifted out of a 160-token context"
wait_screen "oldest turn(s) were shifted out"
grep -E '^done' "$LOG" | grep -q error && fail "a turn failed"
used=$(grep -E '^done' "$LOG" | tail -1 | grep -oE 'used [0-9]+' | cut -d' ' -f2)
[ "$used" -le 160 ] || fail "cache $used over the context size"
# 200 KB pasted where the terminal does not bracket pastes (so it comes as
# that many typed keys): the input takes it without redrawing per key (it
# was minutes of a busy UI), and the message is refused with its size
# without being tokenized; the next question is answered.
python3 -c 'print("word " * 40000, end="")' >"$T/paste.txt"
tmux -u -L "$SOCK" load-buffer "$T/paste.txt"
tmux -u -L "$SOCK" paste-buffer -t "$PANE"
keys Enter
for ((i = 0; i < 600; i++)); do # the transcript's column, its wrapped lines joined
  screen | sed 's/│.*//' | tr -s ' \n' ' ' | grep -qF "but the context holds 160" && break
  sleep 0.1
done
[ $i -lt 600 ] || fail "the long paste was not refused with the context's size"
turns=$(grep -cE '^done' "$LOG")
type_line "still there"
wait_log '^done' 30 $((turns + 1))
grep -E '^done' "$LOG" | tail -1 | grep -q error && fail "the question after the long paste failed"
keys C-d; code=$(wait_exit 5)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
