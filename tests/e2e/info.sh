#!/usr/bin/env bash
# seer info end to end: a hand-encoded GGUF file (bytes written here from the
# format description, not by seer's writer) is summarised correctly, hostile
# metadata is neutralised, and broken or missing files give one line
# "seer: ..." on stderr with exit 1 (usage errors: exit 2).
set -u
SEER=${SEER:?SEER must point at the seer binary}
fail=0
err() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# little-endian integers and length-prefixed strings
u32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
u64() { u32 "$1"; u32 0; }
str() { u64 "${#1}"; printf '%s' "$1"; }

good="$tmp/tiny.gguf"
{
  printf 'GGUF'; u32 3; u64 1; u64 4            # magic, version, 1 tensor, 4 keys
  str general.architecture; u32 8; str llama
  str general.name; u32 8; str "$(printf 'tiny\033[31mred')"
  str llama.block_count; u32 4; u32 3
  str llama.embedding_length; u32 4; u32 4
  str token_embd.weight; u32 2; u64 4; u64 2; u32 0; u64 0   # F32 [4, 2] at offset 0
} > "$good"
size=$(stat -c %s "$good")
pad=$(( (32 - size % 32) % 32 ))
head -c $((pad + 32)) /dev/zero >> "$good"      # alignment padding + 8 floats

out=$("$SEER" info "$good" 2>"$tmp/err"); rc=$?
[ $rc -eq 0 ] || err "good file: exit $rc ($(cat "$tmp/err"))"
grep -q '^format *GGUF v3, 4 metadata keys, 1 tensors, alignment 32$' <<<"$out" || err "format line: $out"
grep -q '^architecture *llama$' <<<"$out" || err "architecture line"
grep -q '^layers *3$' <<<"$out" || err "layers line"
grep -q '^width *4$' <<<"$out" || err "width line"
grep -q '^kind *language model$' <<<"$out" || err "kind line"
grep -q '^tensors *1: 1 F32$' <<<"$out" || err "tensor count line"
grep -q '^parameters *0.00 M$' <<<"$out" || err "parameters line"
grep -q '^name *tiny.*red$' <<<"$out" || err "name line"
if printf '%s' "$out" | grep -q $'\033'; then err "an escape byte from the file reached the terminal"; fi

all=$("$SEER" info --all "$good"); rc=$?
[ $rc -eq 0 ] || err "--all: exit $rc"
grep -q '^  llama.block_count (u32) = 3$' <<<"$all" || err "--all key line"
grep -q '^  token_embd.weight  F32  \[4, 2\]  32 bytes at ' <<<"$all" || err "--all tensor line"

# The kernels this host runs it with, and a one-line warning on stderr when
# OpenBLAS is made to run narrower kernels than the CPU's (Prescott: 128-bit
# SSE3; every x86-64 CPU seer's AVX2 level runs on has 256-bit vectors).
grep -qE '^kernels here *seer [a-z0-9-]+( \+ AMX-(INT8|BF16))*: prompt [a-z0-9_]+, decode [a-z0-9]+, OpenBLAS [A-Za-z0-9_]+' <<<"$out" ||
  err "kernels line: $out"
if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo; then
  warn=$(OPENBLAS_CORETYPE=Prescott "$SEER" info "$good" 2>&1 >/dev/null)
  [ "$(wc -l <<<"$warn")" = 1 ] && grep -q '^seer: warning: OpenBLAS runs its Prescott kernels (128-bit) on a CPU with' <<<"$warn" ||
    err "no one-line warning for OpenBLAS's Prescott kernels: '$warn'"
  warn=$(OPENBLAS_CORETYPE=Prescott "$SEER" info "$good" 2>/dev/null | grep '^kernels here')
  grep -q 'OpenBLAS Prescott (128-bit)' <<<"$warn" || err "kernels line under Prescott: $warn"
fi

# A truncated copy: cut inside the tensor data.
head -c $((size + pad + 16)) "$good" > "$tmp/trunc.gguf"
out=$("$SEER" info "$tmp/trunc.gguf" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "truncated: exit $rc, want 1"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || err "truncated: error is not one line: $out"
grep -q "^seer: .*trunc.gguf: tensor 'token_embd.weight' data \[.*) lies past the end of the file" <<<"$out" ||
  err "truncated: unexpected message: $out"

# Cut in the middle of the metadata.
head -c 120 "$good" > "$tmp/trunc2.gguf"
out=$("$SEER" info "$tmp/trunc2.gguf" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "truncated metadata: exit $rc"
grep -q '^seer: .*truncated' <<<"$out" || err "truncated metadata: $out"

out=$("$SEER" info /nonexistent/x.gguf 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "missing file: exit $rc, want 1"
[ "$out" = "seer: /nonexistent/x.gguf: No such file or directory" ] || err "missing file: $out"
"$SEER" info >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "no argument: exit $rc, want 2"
"$SEER" info --bogus "$good" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "unknown option: exit $rc, want 2"
"$SEER" info --help | grep -q "usage: seer info" || err "--help"

# With the conformance data: a real LLM and a real mmproj.
dir=${CONFORMANCE_DIR:-../shared/conformance}
if [ -d "$dir" ]; then
  out=$("$SEER" info "$dir/cases/qwen25vl-q4_k/model.gguf") || err "qwen model: exit $?"
  grep -q '^rope sections *\[4 x i32\]' <<<"$out" || err "qwen rope sections"
  grep -q '^tokenizer *gpt2 (pre: qwen2)' <<<"$out" || err "qwen tokenizer"
  out=$("$SEER" info "$dir/cases/qwen25vl-q4_k/mmproj.gguf") || err "qwen mmproj: exit $?"
  grep -q '^kind *vision projector (mmproj)$' <<<"$out" || err "mmproj kind"
  grep -q '^patch size *14$' <<<"$out" || err "mmproj patch size"
else
  echo "SKIP: conformance folder not found; hand-made file only"
fi
exit $fail
