#!/usr/bin/env bash
# Resizing mid-stream re-lays out without losing anything; a 40×12 terminal
# works (side panes collapse); below the minimum a clear message; Ctrl-D quits.
. "$(dirname "$0")/tui_lib.bash"
make_model
start 40 12 -m "$T/llm.gguf" -n 400 -c 2048 --temp 0
wait_log '^loaded' 15
wait_screen "loaded"
screen | grep -qF "Timings" && fail "40x12 should collapse the timings pane"
type_line "first question"
wait_log '^token' 20 5
resize 130 40
sleep 0.3
resize 70 20
sleep 0.3
resize 120 35
wait_log '^done' 30 1
screen | grep -qF "› first question" || fail "the user turn was lost across resizes"
screen | grep -qF "Timings" || fail "no timings pane at 120x35"
resize 20 6
wait_screen "terminal too small"
resize 40 12
sleep 0.3
screen | grep -qF "› first question" && fail "a long reply should have scrolled the question off a 40x12 screen"
# PgUp scrolls back to it, PgDn returns to the stream.
for i in $(seq 30); do keys PPage; done
wait_screen "› first question"
wait_screen "more"
for i in $(seq 30); do keys NPage; done
sleep 0.3
screen | grep -qF "more " && fail "PgDn did not return to the bottom"
# The mouse wheel scrolls too (SGR mouse reports, as xterm sends them).
tmux -u -L "$SOCK" send-keys -t "$PANE" -l "$(printf '\033[<64;5;5M')"
wait_screen "↓ 3 more"
for i in 1 2; do tmux -u -L "$SOCK" send-keys -t "$PANE" -l "$(printf '\033[<65;5;5M')"; done
sleep 0.3
screen | grep -qF "more " && fail "the wheel did not scroll back down"
type_line "second"
wait_log '^done' 30 2
keys C-d
code=$(wait_exit 5)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
