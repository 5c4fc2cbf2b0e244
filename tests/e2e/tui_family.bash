# A chat in the TUI on one conformance case's model files (sourced by
# tui_qwen3vl.sh, tui_gemma3.sh): the image given on the command line is
# attached to the first turn; two questions, both answers stream; the second
# turn prefills only its own tokens and the cache holds the whole
# conversation; /clear empties the cache and the next turn starts over.
# family_esc (tui_qwen35.sh, tui_glm4v.sh): Esc mid-answer on the case's LLM.
. "$(dirname "$0")/tui_lib.bash"

# turn_stats N: P, R, U = prefill tokens, reply tokens, cache used of turn N.
turn_stats() {
  P=$(grep -E '^prefill' "$LOG" | sed -n "$1p" | cut -d' ' -f2)
  R=$(grep -E '^done' "$LOG" | sed -n "$1p" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
  U=$(grep -E '^done' "$LOG" | sed -n "$1p" | grep -oE 'used [0-9]+' | cut -d' ' -f2)
}

# family_chat CASE: the case folder under tests/conformance/cases.
family_chat() {
  local dir
  dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/$1"
  [ -f "$dir/model.gguf" ] && [ -f "$dir/mmproj.gguf" ] || { echo "SKIP: case $1 not found"; exit 0; }
  local image  # the case's first image
  image="$dir/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["images"][0])' "$dir/case.json")"
  [ -f "$image" ] || fail "case $1: image $image not found"
  start 120 36 -m "$dir/model.gguf" --mmproj "$dir/mmproj.gguf" "$image" -n 6 --temp 0
  wait_log '^loaded' 20
  # the status line names both files' weight types
  wait_screen_re "│ (F32|F16|BF16|Q[0-9]_[0-9K]) · mmproj (F32|F16|BF16|Q[0-9]_[0-9K]) │" 5
  wait_log '^image [0-9]+ tokens' 20
  local img_tokens
  img_tokens=$(grep -m1 -oE '^image [0-9]+' "$LOG" | cut -d' ' -f2)

  type_line "What is in the picture?"
  wait_log '^done' 60 1
  turn_stats 1
  local p1=$P r1=$R u1=$U
  [ "$p1" -gt "$img_tokens" ] || fail "first prefill ($p1) should hold the image ($img_tokens tokens) and the question"
  [ "$r1" -gt 0 ] && [ "$(grep -cE '^token' "$LOG")" -eq "$r1" ] || fail "first answer did not stream ($r1 tokens)"
  screen | grep -qF "› What is in the picture?" || fail "user turn not in the transcript"

  type_line "And the colours?"
  wait_log '^done' 60 2
  turn_stats 2
  local p2=$P r2=$R u2=$U
  [ "$r2" -gt 0 ] && [ "$(grep -cE '^token' "$LOG")" -eq $((r1 + r2)) ] || fail "second answer did not stream ($r2 tokens)"
  [ "$p2" -gt 0 ] && [ "$p2" -lt 30 ] || fail "second prefill ($p2) re-read the conversation ($u1 tokens cached)"
  [ "$u2" -eq $((u1 + p2 + r2)) ] || fail "cache $u2 != $u1 + $p2 + $r2: the conversation was not kept in the KV cache"
  wait_screen_re "prefill +$p2 tok" 5

  type_line "/clear"
  wait_log '^cleared' 5
  wait_screen "new conversation"
  type_line "What is in the picture?"
  wait_log '^done' 60 3
  turn_stats 3
  local p3=$P r3=$R u3=$U
  # the same question without the image, from an empty cache
  [ "$p3" -lt "$p1" ] && [ "$p3" -gt 0 ] || fail "after /clear: prefill $p3 (first turn with the image: $p1)"
  [ "$u3" -eq $((p3 + r3)) ] || fail "after /clear the cache holds $u3, not $p3 + $r3"

  type_line "/quit"
  local code
  code=$(wait_exit 10)
  [ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
  echo ok
}

# family_esc CASE [SEER_ARGS...]: the case's LLM alone; Esc mid-answer (a
# reply that ends on its own first is retried after /clear): the partial
# answer stays in the cache (and a recurrent state with it) and the next
# question prefills only itself.
family_esc() {
  local stopped k last_done n_at_done used p1 p2 u2 r2 code n_done n_tokens n_cleared attempt
  stop_seer
  local dir
  dir="$(cd "$(dirname "$0")/../conformance/cases" && pwd)/$1"
  # SEER_TOKEN_PAUSE_MS: the tiny model streams a token every 0.1 ms; paced,
  # Esc (sent from outside) lands mid-reply even on a loaded machine
  EXTRA_ENV="SEER_TOKEN_PAUSE_MS=2" start 100 30 -m "$dir/model.gguf" -n 100000 -c 4096 --temp 0 "${@:2}"
  wait_log '^loaded' 20
  stopped=0
  local questions=("Describe the path of grey stones and the house, then count the clouds over the hills."
                   "Tell me a long story about the boats in the harbour." "List every colour you can see.")
  for attempt in 0 1 2; do
    n_done=$(grep -cE '^done' "$LOG")
    type_line "${questions[$attempt]}"
    n_tokens=$(grep -cE '^token' "$LOG")
    wait_log '^token' 20 $((n_tokens + 3))
    keys Escape
    wait_log '^done' 10 $((n_done + 1))
    if grep -E '^done' "$LOG" | sed -n "$((n_done + 1))p" | grep -q cancelled; then stopped=1; break; fi
    n_cleared=$(grep -cE '^cleared' "$LOG")
    type_line "/clear"   # the reply ended on its own before Esc: another question from an empty cache
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
  # ESC_DROPS: a marker whose presence in a reply makes the template render the
  # reply otherwise (GLM's "</think>": the reasoning before it is dropped);
  # a random model may write it, then the turn goes back to where the reply
  # began and prefills the reply as rendered, never the whole conversation
  local drop_id="" dropped=0
  [ -n "${ESC_DROPS:-}" ] && drop_id=$("$SEER" tokenize -m "$dir/model.gguf" -p "$ESC_DROPS" 2>/dev/null)
  if [ -n "$drop_id" ] && awk -v k="$k" -v id="$drop_id" '/^prefill/ { n++ } /^done/ { d++ }
       /^token/ && n == k && d < k && $2 == id { found = 1 } END { exit !found }' "$LOG"; then dropped=1; fi
  if [ "$dropped" = 1 ]; then
    [ "$p2" -gt 0 ] && [ "$p2" -lt $((n_at_done + 40)) ] || fail "after Esc (reply re-rendered) the next turn prefilled $p2 tokens"
    [ "$u2" -lt $((used + p2 + r2)) ] || fail "cache $u2 after a re-rendered reply: the reply was not rolled back"
  else
    [ "$p2" -gt 0 ] && [ "$p2" -lt 40 ] || fail "after Esc the next turn prefilled $p2 tokens: the cache and state were not kept"
    [ "$u2" -eq $((used + p2 + r2)) ] || fail "cache $u2 != $used + $p2 + $r2 after the turn that followed Esc"
  fi
  type_line "/quit"
  code=$(wait_exit 10)
  [ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
}
