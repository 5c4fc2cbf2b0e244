#!/usr/bin/env bash
# MobileVLM (LLaVA-1.5's CLIP with the LDP projector: MobileNetV3 blocks, 144
# tokens per image, llama LLM without a chat template, so the Vicuna prompt)
# chatting in the TUI on the mobilevlm-ldp-f32 conformance files: see
# tui_family.bash (the Vicuna fallback itself: test_chat).
. "$(dirname "$0")/tui_family.bash"
family_chat mobilevlm-ldp-f32
