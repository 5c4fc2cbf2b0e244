#!/usr/bin/env bash
# Mistral Small 3.1 layout (Pixtral ViT with 2-D RoPE, 2×2 patch merger, rows
# of image tokens separated by [IMG_BREAK], [IMG_END]; llama LLM, Q8_0, the
# v7 template) chatting in the TUI on the mistral3-q8_0 conformance files:
# see tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat mistral3-q8_0
