#!/usr/bin/env bash
# Qwen3.5 layout (hybrid qwen35 LLM: Gated DeltaNet layers whose conv rows
# and d×d matrices per value head are a recurrent state beside the KV cache
# of the gated attention layers; qwen3vl_merger without DeepStack) chatting
# in the TUI on the qwen35-f32 conformance files: two turns that keep the
# cache and the recurrent state (the second prefills only its own tokens),
# /clear (see tui_family.bash); then Esc mid-answer: the partial answer stays
# in the cache (and the state with it) and the next question again prefills
# only itself.
. "$(dirname "$0")/tui_family.bash"
(family_chat qwen35-f32) || exit 1

stop_seer
dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/qwen35-f32"
start 100 30 -m "$dir/model.gguf" -n 100000 -c 4096 --temp 0
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
[ "$p2" -gt 0 ] && [ "$p2" -lt 40 ] || fail "after Esc the next turn prefilled $p2 tokens: the cache and state were not kept"
[ "$u2" -eq $((used + p2 + r2)) ] || fail "cache $u2 != $used + $p2 + $r2 after the turn that followed Esc"
type_line "/quit"
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
