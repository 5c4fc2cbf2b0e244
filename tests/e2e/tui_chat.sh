#!/usr/bin/env bash
# The main flow in a real terminal: attach by /image and by bare path, ask,
# reply streams, second turn prefills only its own tokens (timings panel),
# /save writes Markdown, /clear starts over, /quit exits cleanly.
. "$(dirname "$0")/tui_lib.bash"
make_model
make_image "$T/one.ppm" 40 30
make_image "$T/two picture.ppm" 30 40
start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 12 --temp 0
wait_log '^loaded' 15
wait_screen "loaded"

type_line "/image $T/one.ppm"
wait_log '^image [0-9]+ tokens' 10 1
img_tokens=$(grep -m1 -oE '^image [0-9]+' "$LOG" | cut -d' ' -f2)
wait_screen "one.ppm ("
# A line that is just a path (as dropped by a terminal: quoted) attaches too.
type_line "'$T/two picture.ppm'"
wait_log '^image [0-9]+ tokens' 10 2
wait_screen "two picture.ppm ("
screen | grep -qF "Image 2/2" || fail "preview pane does not show the second image"

type_line "hello there"
wait_log '^done' 20 1
screen | grep -qF "› hello there" || fail "user turn not in the transcript"
p1=$(grep -E '^prefill' "$LOG" | sed -n 1p | cut -d' ' -f2)
[ "$p1" -gt $((2 * img_tokens)) ] || fail "first prefill ($p1) should hold both images ($img_tokens each)"
reply=$(grep -m1 -E '^done' "$LOG" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
[ "$reply" -gt 0 ] || fail "no reply tokens"

type_line "and again"
wait_log '^done' 20 2
p2=$(grep -E '^prefill' "$LOG" | sed -n 2p | cut -d' ' -f2)
# The timings panel shows it.
wait_screen_re "prefill +$p2 tok" 5
u1=$(grep -E '^done' "$LOG" | sed -n 1p | grep -oE 'used [0-9]+' | cut -d' ' -f2)
[ "$p2" -gt 0 ] && [ "$p2" -lt "$u1" ] || fail "second prefill ($p2) re-read the conversation ($u1 tokens cached)"
u2=$(grep -E '^done' "$LOG" | sed -n 2p | grep -oE 'used [0-9]+' | cut -d' ' -f2)
r2=$(grep -E '^done' "$LOG" | sed -n 2p | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
[ "$u2" -eq $((u1 + p2 + r2)) ] || fail "cache $u2 != $u1 + $p2 + $r2: the conversation was not kept in the KV cache"

type_line "/save $T/chat.md"
wait_screen "saved the transcript"
grep -qF "## You" "$T/chat.md" && grep -qF "hello there" "$T/chat.md" && grep -qF "## Assistant" "$T/chat.md" \
  && grep -qF "![image]($T/one.ppm)" "$T/chat.md" && grep -qF "and again" "$T/chat.md" \
  || { cat "$T/chat.md"; fail "saved Markdown is incomplete"; }
ls "$T" | grep -q 'chat.md.tmp' && fail "temporary file left behind"

type_line "/images"
wait_screen "2. $T/two picture.ppm"
type_line "/frobnicate"
wait_screen "unknown command /frobnicate"

type_line "/clear"
wait_log '^cleared' 5
wait_screen "new conversation"
screen | grep -qF "› hello there" && fail "/clear left the old transcript"
type_line "hello there"
wait_log '^done' 20 3
p3=$(grep -E '^prefill' "$LOG" | sed -n 3p | cut -d' ' -f2)
# Same words, no images (LLaVA-1.5 layout: an image is exactly its rows).
[ "$p3" -eq $((p1 - 2 * img_tokens)) ] || fail "after /clear: prefill $p3, expected $p1 - 2 x $img_tokens"

type_line "/quit"
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo "ok"
