#!/usr/bin/env bash
# A thinking model in the TUI, on a real GGUF scripted by its weights
# (make_think_model: thought " The user greets me. I should answer briefly.",
# the control token </think>, answer "Hello there!"): the thought is drawn in
# its own dimmed entry and folded to one line once the answer starts, Ctrl-T
# unfolds and folds it, the timings panel times thinking and answer apart, a
# reply cut inside its thought keeps it open, and /think off makes the next
# turn answer at once.
. "$(dirname "$0")/tui_lib.bash"
"$TOOLS/make_think_model" --out "$T/think.gguf" || { echo "FAIL: make_think_model"; exit 1; }

start 100 30 -m "$T/think.gguf"
wait_log '^loaded' 20
wait_screen "thinking on" 5
type_line "Hi"
wait_log '^done end tokens 13 used [0-9]+ thought 9' 20
wait_screen "Hello there!" 5
# folded: one line, the thought text hidden
wait_screen_re "▸ thought for [0-9.]+ s · 9 tokens · Ctrl-T unfolds" 5
screen | grep -q "I should answer briefly" && fail "the finished thought is not folded"
screen | grep -q "think>" && fail "a marker is on screen"
# thinking and answer timed apart
screen | grep -qE "thinking +9 tok · [0-9.]+ s" || fail "no thinking row in the timings"
screen | grep -qE "answer +4 tok · [0-9.]+ s" || fail "no answer row in the timings"
# the thought's line is drawn in another style than the answer
screen_escapes > "$T/esc"
python3 - "$T/esc" <<'PY' || fail "the folded thought looks like the answer"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
def style(text):
    for l in lines:
        i = l.find(text)
        if i >= 0:
            sgr = re.findall(r"\x1b\[[0-9;]*m", l[:i])
            return sgr[-1] if sgr else ""
    sys.exit("no line with " + text)
a, b = style("thought for"), style("Hello there!")
assert a != b, (a, b)
PY

# Ctrl-T unfolds: the whole thought, markers left out, then folds again
keys C-t
wait_screen "The user greets me. I should answer briefly." 5
screen | grep -q "▾ The user greets me" || fail "the unfolded thought has no open mark"
screen | grep -q "think>" && fail "a marker is on screen (unfolded)"
keys C-t
wait_screen_re "▸ thought for [0-9.]+ s · 9 tokens" 5
screen | grep -q "I should answer briefly" && fail "Ctrl-T did not fold the thought again"

# a reply stopped inside its thought: the thought stays open, no answer
type_line "/set n_predict 5"
type_line "Again"
wait_log '^done limit tokens 5 used [0-9]+ thought 5' 20
wait_screen "▾ The user greets me. I" 5

# /think off: the next turn answers at once
type_line "/set n_predict 64"
type_line "/think off"
wait_screen "thinking off from the next turn" 5
type_line "Bye"
wait_log '^done end tokens 3 used [0-9]+ thought 0' 20
for ((i = 0; i < 50; i++)); do [ "$(screen | grep -c "Hello there!")" -eq 2 ] && break; sleep 0.1; done
n=$(screen | grep -c "Hello there!")
[ "$n" -eq 2 ] || fail "want 2 answers on screen, see $n"
n=$(screen | grep -cE "▸ thought for")
[ "$n" -eq 1 ] || fail "/think off still thought ($n folded thoughts)"
screen | grep -qE "thinking +0 tok" || fail "timings after /think off"
type_line "/think"
wait_screen "thinking is off (/think on|off)" 5
echo "tui thinking: ok"
