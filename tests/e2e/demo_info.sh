#!/usr/bin/env bash
# `seer info` shows the bundled demo model's files with the metadata and
# tensor names llama.cpp's converters write (LLaVA-1.5 layout, see
# tools/demo-model/README.md).
set -u
cd "$(dirname "$0")/../.."
seer=${SEER:-./seer}
llm=assets/models/demo-llm.gguf mmproj=assets/models/demo-mmproj.gguf
fail=0
expect() { # FILE PATTERN (extended regex, one line of `seer info --all`)
  if ! grep -Eq -- "$2" "$1"; then echo "$(basename "$1"): no line matching: $2"; fail=1; fi
}
"$seer" info --all "$llm" > "${TMPDIR:-/tmp}/demo_llm_info.$$" || { echo "seer info $llm failed"; exit 1; }
"$seer" info --all "$mmproj" > "${TMPDIR:-/tmp}/demo_mmproj_info.$$" || { echo "seer info $mmproj failed"; exit 1; }
L=${TMPDIR:-/tmp}/demo_llm_info.$$ M=${TMPDIR:-/tmp}/demo_mmproj_info.$$

expect "$L" '^  general.architecture \(string\) = "llama"'
for k in block_count context_length embedding_length feed_forward_length attention.head_count \
         attention.head_count_kv rope.freq_base attention.layer_norm_rms_epsilon vocab_size rope.dimension_count; do
  expect "$L" "^  llama\.$k "
done
expect "$L" '^  tokenizer.ggml.model \(string\) = "gpt2"'
expect "$L" '^  tokenizer.ggml.pre \(string\) = "gpt-2"'
expect "$L" '^  tokenizer.ggml.add_bos_token \(bool\) = false'
expect "$L" '^  tokenizer.chat_template \(string\) = .*<\|im_start\|>'
for t in token_embd.weight blk.0.attn_norm.weight blk.0.attn_q.weight blk.0.attn_k.weight blk.0.attn_v.weight \
         blk.0.attn_output.weight blk.0.ffn_norm.weight blk.0.ffn_gate.weight blk.0.ffn_up.weight \
         blk.0.ffn_down.weight output_norm.weight output.weight; do
  expect "$L" "^  $t  F(16|32) "
done

expect "$M" '^  general.architecture \(string\) = "clip"'
expect "$M" '^  clip.projector_type \(string\) = "mlp"'
expect "$M" '^  clip.has_llava_projector \(bool\) = true'
expect "$M" '^  clip.has_vision_encoder \(bool\) = true'
expect "$M" '^  clip.has_text_encoder \(bool\) = false'
expect "$M" '^  clip.use_gelu \(bool\) = false'
expect "$M" '^  clip.vision.image_size \(u32\) = 64'
for k in patch_size embedding_length feed_forward_length projection_dim attention.head_count \
         attention.layer_norm_epsilon block_count image_mean image_std; do
  expect "$M" "^  clip\.vision\.$k "
done
for t in mm.0.weight mm.0.bias mm.2.weight mm.2.bias v.class_embd v.patch_embd.weight v.position_embd.weight \
         v.pre_ln.weight v.pre_ln.bias v.blk.0.attn_q.bias v.blk.0.attn_out.weight v.blk.0.ln1.weight \
         v.blk.0.ln2.bias; do
  expect "$M" "^  $t  F(16|32) "
done
# legacy converter: ffn_down is the first MLP matrix (encoder width first), no post-LN
expect "$M" '^  v.blk.0.ffn_down.weight  F16  \[128, 384\]'
expect "$M" '^  v.blk.0.ffn_up.weight  F16  \[384, 128\]'
if grep -q "v.post_ln" "$M"; then echo "unexpected v.post_ln"; fail=1; fi
size=$(( $(stat -c %s "$llm") + $(stat -c %s "$mmproj") ))
[ "$size" -le $((16 * 1024 * 1024)) ] || { echo "demo model is $size bytes, over 16 MB"; fail=1; }
rm -f "$L" "$M"
exit $fail
