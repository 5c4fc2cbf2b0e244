#!/usr/bin/env bash
# History is saved under $XDG_STATE_HOME/seer/history and survives a restart;
# Tab completes a path after /image.
. "$(dirname "$0")/tui_lib.bash"
make_model
start 100 30 -m "$T/llm.gguf" -n 4
wait_log '^loaded' 15
type_line "/set temp 0.5"
wait_screen "temp = 0.5"
type_line "/quit"
wait_exit 10 >/dev/null
[ -f "$XDG_STATE_HOME/seer/history" ] || fail "no history file"
grep -qF "/set temp 0.5" "$XDG_STATE_HOME/seer/history" || fail "history file lacks the line"
stop_seer

mkdir -p "$T/pics"; make_image "$T/pics/zebra_unique.ppm" 8 8
start 100 30 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 4
wait_log '^loaded' 15
keys Up Up
wait_screen "› /set temp 0.5"
keys Enter
# Reverse search finds it too; Esc leaves the search with the line.
keys C-r
tmux -u -L "$SOCK" send-keys -t "$PANE" -l "temp 0"
wait_screen "(reverse-i-search)\`temp 0': /set temp 0.5"
keys Escape
wait_screen "› /set temp 0.5"
keys C-e C-u
tmux -u -L "$SOCK" send-keys -t "$PANE" -l "/image $T/pics/zeb"
keys Tab
wait_screen "zebra_unique.ppm"
keys Enter
wait_log '^image' 10
echo ok
