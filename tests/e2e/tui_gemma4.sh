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
start 120 36 -m "$dir/model.gguf" -n 6 -c 4096 --temp 0
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

# A reply that would fill the context, stopped with Esc after a few tokens.
type_line "/set n_predict 100000"
type_line "Count to a thousand."
wait_log '^token' 20 $((r1 + r2 + 3))
keys Escape
wait_log '^done cancelled' 10
wait_screen "(stopped)"
turn_stats 3
p3=$P r3=$R u3=$U
[ "$r3" -lt 3000 ] || fail "the reply ran on ($r3 tokens) after Esc"
[ "$u3" -eq $((u2 + p3 + r3)) ] || fail "after Esc the cache holds $u3, not $u2 + $p3 + $r3 (what was shown)"
[ "$(grep -cE '^token' "$LOG")" -eq $((r1 + r2 + r3)) ] || fail "tokens shown differ from tokens kept after Esc"
# The next turn keeps at least the two earlier turns' rows (a random reply
# cut mid-way need not tokenize back to the same ids, so the rows from where
# it differs are prefilled again).
type_line "/set n_predict 4"
type_line "Next."
wait_log '^done' 30 4
turn_stats 4
kept=$((U - P - R))
[ "$kept" -ge "$u2" ] && [ "$kept" -le "$u3" ] || fail "turn after Esc kept $kept cache rows (two turns: $u2, after Esc: $u3)"

type_line "/clear"
wait_log '^cleared' 5
wait_screen "new conversation"
type_line "How many trees are there?"
wait_log '^done' 60 5
turn_stats 5
[ "$P" -eq "$p1" ] || fail "after /clear the same question prefilled $P tokens, the first time $p1"
[ "$U" -eq $((P + R)) ] || fail "after /clear the cache holds $U, not $P + $R"

type_line "/quit"
wait_exit 10
echo ok
