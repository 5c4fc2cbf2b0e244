#!/usr/bin/env bash
# MiniCPM-V 2.6 (SigLIP with bucketed positions, the resampler's 64 learned
# queries per input, overview + 2×2 slices as <image>…</image><slice>…</slice>,
# qwen2 LLM) chatting in the TUI on the minicpmv26-f32 conformance files: see
# tui_family.bash.
. "$(dirname "$0")/tui_family.bash"
family_chat minicpmv26-f32
