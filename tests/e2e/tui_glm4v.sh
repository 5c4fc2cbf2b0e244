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

(ESC_DROPS="</think>" family_esc glm4v-f32 --think off) || exit 1

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
