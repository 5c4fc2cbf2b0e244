#!/usr/bin/env bash
# Gemma 4 with its gemma4v tower chatting in the TUI on the gemma4-31b-f32
# conformance files: the image (70 tokens between <|image> and <image|>,
# decoded non-causally on the sliding layers) in the first turn, a second
# turn over the kept cache, /clear; see tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat gemma4-31b-f32
