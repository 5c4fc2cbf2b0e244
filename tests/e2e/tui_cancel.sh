#!/usr/bin/env bash
# Esc stops a reply within a token or so, the partial answer stays on screen
# and in the cache, and the next turn works; Ctrl-C stops too.
. "$(dirname "$0")/tui_lib.bash"
# Much wider than the default tiny model: several ms per token even on a quiet
# machine (a 4096-token reply takes many seconds), so keys land mid-reply.
make_model --embd 1024 --ff 4096 --heads 8 --kv-heads 4
start 100 30 -m "$T/llm.gguf" -n 100000 -c 4096 --temp 0
wait_log '^loaded' 15
type_line "write forever"
wait_log '^token' 20 3
keys Escape
wait_log '^done cancelled' 5
n_at_done=$(grep -m1 -E '^done' "$LOG" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
[ "$n_at_done" -lt 4000 ] || fail "the reply ran to the end of the context ($n_at_done tokens)"
wait_screen "(stopped)"
used=$(grep -m1 -E '^done' "$LOG" | grep -oE 'used [0-9]+' | cut -d' ' -f2)
p1=$(grep -m1 -E '^prefill' "$LOG" | cut -d' ' -f2)
[ "$used" -eq $((p1 + n_at_done)) ] || fail "cache holds $used, transcript $p1 + $n_at_done"
tokens_logged=$(grep -cE '^token' "$LOG")
[ "$tokens_logged" -eq "$n_at_done" ] || fail "$tokens_logged tokens shown, $n_at_done kept"

# The next turn continues from the kept partial answer.
type_line "/set n_predict 5"
type_line "next"
wait_log '^done (end|limit)' 20 1
p2=$(grep -E '^prefill' "$LOG" | sed -n 2p | cut -d' ' -f2)
[ "$p2" -lt 40 ] || fail "second turn prefilled $p2 tokens: the cache was not kept"

# Ctrl-C while generating stops too (and does not quit). Scrolled up, the
# view stays put while the reply streams on below. (A random model may end a
# reply early: then a fresh conversation tries again.)
type_line "/set n_predict 100000"
resize 100 14   # a short pane: the reply overflows it soon
checked=0
for attempt in 1 2 3 4 5 6; do
  n_cleared=$(grep -cE '^cleared' "$LOG")
  type_line "/clear"
  wait_log '^cleared' 5 $((n_cleared + 1))
  done_before=$(grep -cE '^done' "$LOG")
  prefills=$(grep -cE '^prefill' "$LOG")
  type_line "write forever"
  wait_log '^prefill' 20 $((prefills + 1))
  for i in $(seq 60); do   # PgUp until the transcript is long enough to scroll
    keys PPage; sleep 0.2
    screen | grep -qF "more " && break
  done
  top1=$(screen | head -5 | sed "s/│.*//")
  sleep 0.6
  top2=$(screen | head -5 | sed "s/│.*//")
  [ "$(grep -cE '^done' "$LOG")" -eq "$done_before" ] || continue   # ended early: try again
  [ "$top1" = "$top2" ] || fail "the scrolled-up view moved while streaming"
  screen | grep -qF "more " || fail "no 'more below' marker while scrolled up"
  keys C-c
  wait_log '^done cancelled' 5 2
  checked=1
  break
done
[ "$checked" = 1 ] || fail "every reply ended before the scroll check could run"
sleep 0.3
[ -s "$T/exit" ] && fail "Ctrl-C during a reply quit seer"
# Ctrl-C twice on an idle line quits, restoring the terminal.
keys C-c; sleep 0.2; keys C-c
code=$(wait_exit 5)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
