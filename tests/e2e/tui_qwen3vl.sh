#!/usr/bin/env bash
# Qwen3-VL (DeepStack image rows, M-RoPE positions) chatting in the TUI on the
# qwen3vl-f32 conformance files: see tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat qwen3vl-f32
