#!/usr/bin/env bash
# InternVL3 (InternViT with layer scales, 6 tiles + overview between <img> and
# </img>, qwen2 LLM) chatting in the TUI on the internvl3-f32 conformance
# files: see tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat internvl3-f32
