#!/usr/bin/env bash
# GLM-4.6V-Flash layout (glm4 LLM with sandwich norms, fused gate/up and
# partial M-RoPE; glm4v projector) chatting in the TUI on the glm4v-f32
# conformance files, its chat template recognised as GLM's: two turns that
# keep the cache (the second prefills only its own tokens), /clear (see
# tui_family.bash); Esc mid-answer: the partial answer stays in the cache and
# the next question prefills only itself. Then a scripted thinker with a
# GLM-4.6-shaped template (make_think_model --glm: the model opens "<think>"
# itself after "<|assistant|>"): its thought is folded to one line, no marker
# on screen, and /think off gives an answer at once ("/nothink", an empty
# thought in the prompt).
. "$(dirname "$0")/tui_family.bash"
(family_chat glm4v-f32) || exit 1

stop_seer
dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/glm4v-f32"
start 100 30 -m "$dir/model.gguf" -n 100000 -c 4096 --temp 0 --think off
wait_log '^loaded' 20
stopped=0
for attempt in 1 2 3 4 5; do
  n_done=$(grep -cE '^done' "$LOG")
  type_line "Describe the path of grey stones and the house, then count the clouds over the hills."
  n_tokens=$(grep -cE '^token' "$LOG")
  wait_log '^token' 20 $((n_tokens + 3))
  keys Escape
  wait_log '^done' 10 $((n_done + 1))
  if grep -E '^done' "$LOG" | sed -n "$((n_done + 1))p" | grep -q cancelled; then stopped=1; break; fi
  n_cleared=$(grep -cE '^cleared' "$LOG")
  type_line "/clear"   # the reply ended on its own before Esc: try again from an empty cache
  wait_log '^cleared' 5 $((n_cleared + 1))
done
[ "$stopped" = 1 ] || fail "every reply ended before Esc"
wait_screen "(stopped)"
k=$(grep -cE '^done' "$LOG")
last_done=$(grep -E '^done' "$LOG" | sed -n "${k}p")
n_at_done=$(echo "$last_done" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
used=$(echo "$last_done" | grep -oE 'used [0-9]+' | cut -d' ' -f2)
[ "$n_at_done" -lt 4000 ] || fail "the reply ran to the end of the context ($n_at_done tokens)"
p1=$(grep -E '^prefill' "$LOG" | sed -n "${k}p" | cut -d' ' -f2)
[ "$used" -ge $((p1 + n_at_done)) ] || fail "cache holds $used after Esc, the turn $p1 + $n_at_done"

type_line "/set n_predict 5"
type_line "And the colour of the door?"
wait_log '^done' 20 $((k + 1))
p2=$(grep -E '^prefill' "$LOG" | sed -n "$((k + 1))p" | cut -d' ' -f2)
u2=$(grep -E '^done' "$LOG" | sed -n "$((k + 1))p" | grep -oE 'used [0-9]+' | cut -d' ' -f2)
r2=$(grep -E '^done' "$LOG" | sed -n "$((k + 1))p" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
[ "$p2" -gt 0 ] && [ "$p2" -lt 40 ] || fail "after Esc the next turn prefilled $p2 tokens: the cache was not kept"
[ "$u2" -eq $((used + p2 + r2)) ] || fail "cache $u2 != $used + $p2 + $r2 after the turn that followed Esc"
type_line "/quit"
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"

# thinking: a GLM-template model that opens its own thought
"$TOOLS/make_think_model" --out "$T/glm-think.gguf" --glm || fail "make_think_model --glm"
stop_seer
start 100 30 -m "$T/glm-think.gguf"
wait_log '^loaded' 20
wait_screen "thinking on" 5
type_line "Hi"
wait_log '^done end tokens [0-9]+ used [0-9]+ thought [0-9]+' 20
wait_screen "Hello there!" 5
wait_screen_re "▸ thought for [0-9.]+ s · [0-9]+ tokens · Ctrl-T unfolds" 5
screen | grep -q "I should answer briefly" && fail "the finished thought is not folded"
screen | grep -q "think>" && fail "a marker is on screen"
keys C-t
wait_screen "The user greets me. I should answer briefly." 5
screen | grep -q "think>" && fail "a marker is on screen (unfolded)"
keys C-t
type_line "/think off"
wait_screen "thinking off from the next turn" 5
type_line "Bye"
wait_log '^done end tokens [0-9]+ used [0-9]+ thought 0' 20
for ((i = 0; i < 50; i++)); do [ "$(screen | grep -c "Hello there!")" -eq 2 ] && break; sleep 0.1; done
[ "$(screen | grep -c "Hello there!")" -eq 2 ] || fail "no answer after /think off"
type_line "/quit"
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
