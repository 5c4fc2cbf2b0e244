#!/usr/bin/env bash
# Gemma 4 (31B shape: per-layer head geometry, V from K, proportional RoPE,
# sliding window) chatting in the TUI on the text-gemma4-31b-f32 conformance
# model, whose stand-in chat template carries Gemma 4's <|turn> markers: two
# turns, the second prefilling only its own tokens over the kept cache; Esc
# stops a long reply with the cache holding exactly what was shown, and the
# next turn goes on from there; /clear starts over.
. "$(dirname "$0")/tui_lib.bash"

turn_stats() { # N: P, R, U = prefill tokens, reply tokens, cache used of turn N
  P=$(grep -E '^prefill' "$LOG" | sed -n "$1p" | cut -d' ' -f2)
  R=$(grep -E '^done' "$LOG" | sed -n "$1p" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
  U=$(grep -E '^done' "$LOG" | sed -n "$1p" | grep -oE 'used [0-9]+' | cut -d' ' -f2)
}

dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/text-gemma4-31b-f32"
[ -f "$dir/model.gguf" ] || { echo "SKIP: case text-gemma4-31b-f32 not found"; exit 0; }
EXTRA_ENV="SEER_TOKEN_PAUSE_MS=2" start 120 36 -m "$dir/model.gguf" -n 6 -c 4096 --temp 0
wait_log '^loaded' 20
wait_screen_re "│ F32 │ gemma4 │" 5
type_line "/stats"
wait_screen "· chat gemma4 ·"

type_line "How many trees are there?"
wait_log '^done' 60 1
turn_stats 1
p1=$P r1=$R u1=$U
[ "$r1" -gt 0 ] && [ "$(grep -cE '^token' "$LOG")" -eq "$r1" ] || fail "first answer did not stream ($r1 tokens)"
[ "$u1" -eq $((p1 + r1)) ] || fail "cache $u1 != $p1 + $r1 after the first turn"

type_line "And the colours?"
wait_log '^done' 60 2
turn_stats 2
p2=$P r2=$R u2=$U
[ "$p2" -gt 0 ] && [ "$p2" -lt 30 ] || fail "second prefill ($p2) re-read the conversation ($u1 tokens cached)"
[ "$u2" -eq $((u1 + p2 + r2)) ] || fail "cache $u2 != $u1 + $p2 + $r2: the conversation was not kept"

# A long reply stopped with Esc after a few tokens. The tiny model streams a
# token every 0.1 ms, so SEER_TOKEN_PAUSE_MS (set at start) paces it: the key,
# sent from outside, lands mid-reply even on a loaded machine. Should a greedy
# reply still end on its own first, another question is asked in the same
# conversation (asking the same one after /clear would repeat it exactly).
type_line "/set n_predict 100000"
stopped=0
for question in "Count to a thousand." "Name every tree you know." "Tell me a long story."; do
  k=$(($(grep -cE '^done' "$LOG") + 1))
  base=$(grep -E '^done' "$LOG" | tail -1 | grep -oE 'used [0-9]+' | cut -d' ' -f2)
  n_tok=$(grep -cE '^token' "$LOG")
  type_line "$question"
  wait_log '^token' 20 $((n_tok + 3))
  keys Escape
  wait_log '^done' 10 "$k"
  if grep -E '^done' "$LOG" | sed -n "${k}p" | grep -q cancelled; then stopped=1; break; fi
done
[ "$stopped" = 1 ] || fail "every reply ended on its own before Esc"
wait_screen "(stopped)"
turn_stats "$k"
p3=$P r3=$R u3=$U
[ "$r3" -lt 3000 ] || fail "the reply ran on ($r3 tokens) after Esc"
[ "$u3" -eq $((base + p3 + r3)) ] || fail "after Esc the cache holds $u3, not $base + $p3 + $r3 (what was shown)"
[ "$(grep -cE '^token' "$LOG")" -eq $((n_tok + r3)) ] || fail "tokens shown differ from tokens kept after Esc"
# The next turn keeps at least the earlier turns' rows (a random reply
# cut mid-way need not tokenize back to the same ids, so the rows from where
# it differs are prefilled again).
type_line "/set n_predict 4"
type_line "Next."
wait_log '^done' 30 $((k + 1))
turn_stats $((k + 1))
kept=$((U - P - R))
[ "$kept" -ge "$base" ] && [ "$kept" -le "$u3" ] || fail "turn after Esc kept $kept cache rows (before the question: $base, after Esc: $u3)"

n_cleared=$(grep -cE '^cleared' "$LOG")
type_line "/clear"
wait_log '^cleared' 5 $((n_cleared + 1))
wait_screen "new conversation"
type_line "How many trees are there?"
wait_log '^done' 60 $((k + 2))
turn_stats $((k + 2))
[ "$P" -eq "$p1" ] || fail "after /clear the same question prefilled $P tokens, the first time $p1"
[ "$U" -eq $((P + R)) ] || fail "after /clear the cache holds $U, not $P + $R"

type_line "/quit"
wait_exit 10
echo ok
