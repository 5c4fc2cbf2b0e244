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

# ESC_DROPS: Qwen3.5's template drops the reasoning before "</think>" from
# earlier turns, so a random reply that writes it is re-rendered next turn
(ESC_DROPS="</think>" family_esc qwen35-f32) || exit 1
echo ok
