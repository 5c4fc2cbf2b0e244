#!/usr/bin/env bash
# LFM2-VL with an image llama.cpp tiles (lfm2vl-tiled-q4_k: 800×720 →
# 2×2 tiles of 512 px + a 512×480 thumbnail, 4·256 + 240 image tokens) in
# the TUI: two turns that keep the cache and the conv state, /clear, and
# a new turn (tui_family.bash); the image must reach the model whole.
. "$(dirname "$0")/tui_family.bash"
family_chat lfm2vl-tiled-q4_k
n=$(grep -m1 -oE '^image [0-9]+' "$LOG" | cut -d' ' -f2)
[ "$n" -eq 1264 ] || fail "the tiled image gave $n tokens, not 4 tiles of 256 + a 240-token thumbnail (1264)"
