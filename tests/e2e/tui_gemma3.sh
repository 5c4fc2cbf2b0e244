#!/usr/bin/env bash
# Gemma 3 (image decoded non-causally, sliding-window layers) chatting in the
# TUI on the gemma3-f32 conformance files: see tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat gemma3-f32
