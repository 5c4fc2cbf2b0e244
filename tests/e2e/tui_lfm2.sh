#!/usr/bin/env bash
# LFM2-VL layout (SigLIP2 NaFlex tower with resized positions, pixel
# unshuffle, LayerNorm + MLP projector; the hybrid lfm2 LLM whose
# short-convolution layers carry a recurrent state beside the KV cache)
# chatting in the TUI on the lfm2vl-f32 conformance files: two turns that
# keep the cache (and the conv state) and /clear mid-conversation; see
# tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat lfm2vl-f32
