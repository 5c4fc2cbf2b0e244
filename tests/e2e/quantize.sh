#!/usr/bin/env bash
# seer quantize end to end: usage and refusal errors (one line, no output
# file), and, for every file type on three conformance models, the tensor
# bytes against llama-quantize's (tests/e2e/quantize/llama-quantize.sha256:
# per model and type, the SHA-256 of tensor_digests.py's listing of the file
# llama.cpp's llama-quantize wrote from the same F32 model, no imatrix).
# An mmproj: block matrices quantized, embeddings/norms/biases kept, and
# `seer info` names each tensor's type.
set -u
SEER=${SEER:?SEER must point at the seer binary}
cd "$(dirname "$0")/../.."
fail=0
err() { echo "FAIL: $*"; fail=1; }
one_line() { [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]; }
# Only this shell cleans up: a child signalled between fork and exec runs
# the EXIT trap too (bash), and it once removed the folder mid-test.
tmp=$(mktemp -d); trap '[ "$BASHPID" = $$ ] && rm -rf "$tmp"' EXIT
cases=tests/conformance/cases
digests=tests/e2e/quantize/llama-quantize.sha256
model=$cases/text-qwen3-f32/model.gguf

# Usage: exit 2.
"$SEER" quantize >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "no arguments: exit $rc, want 2"
"$SEER" quantize a b c --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "unknown option: exit $rc, want 2"
"$SEER" quantize --help | grep -q "usage: seer quantize" || err "--help prints no usage"

# Refusals: exit 1, one line, nothing written.
refuse() { # what, expected message part, args...
  local what=$1 want=$2; shift 2
  out=$("$SEER" quantize "$@" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] || err "$what: exit $rc, want 1"
  one_line "$out" || err "$what: error is not one line: $out"
  printf '%s' "$out" | grep -q "$want" || err "$what: error does not say '$want': $out"
}
refuse "unknown type" "unknown type 'Q9_9'" "$model" "$tmp/x.gguf" Q9_9
[ -e "$tmp/x.gguf" ] && err "unknown type: output written"
refuse "missing input" "nonexistent" /nonexistent/in.gguf "$tmp/x.gguf" Q8_0
touch "$tmp/exists.gguf"
refuse "output exists" "already exists" "$model" "$tmp/exists.gguf" Q8_0
[ -s "$tmp/exists.gguf" ] && err "output exists: it was overwritten"
"$SEER" quantize --force "$model" "$tmp/exists.gguf" Q8_0 2>/dev/null || err "--force: refused"
refuse "coarser input" "is already Q[0-9]_[0-9K]*, coarser than Q8_0" $cases/gemma3-q4_k/model.gguf "$tmp/y.gguf" Q8_0
[ -e "$tmp/y.gguf" ] && err "coarser input: output written"

# Progress on stderr: tensor i/n and MB written.
"$SEER" quantize "$model" "$tmp/p.gguf" Q4_0 2>&1 >/dev/null | tr '\r' '\n' | grep -q "\[46/46\].*MB written" ||
  err "no progress line [46/46] … MB written"
ls "$tmp" | grep -q tmp && err "a temporary file was left behind: $(ls "$tmp")"

# Interrupted (Ctrl-C, or a kill) part-way: exit 130, one line saying so,
# neither OUT nor a temporary file left. A big random-weight encoder keeps it
# busy for seconds: the signal lands between its first and last tensor.
# (bench --synth --out makes every missing folder, as mkdir -p.)
"$SEER" bench --synth smolvlm-256m --out "$tmp/new/deeper/big" >/dev/null 2>"$tmp/synth.err" &&
  mv "$tmp/new/deeper/big" "$tmp/big" || err "cannot write the synthetic smolvlm-256m model: $(cat "$tmp/synth.err")"
rm -rf "$tmp/new" "$tmp/synth.err"
out=$("$SEER" bench --synth smolvlm-256m --out "$tmp/big/smolvlm-256m-llm.gguf/sub" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && one_line "$out" && printf '%s' "$out" | grep -q "cannot create the folder .*big/smolvlm-256m-llm.gguf: Not a directory" ||
  err "bench --out under a file: exit $rc, want 1 and one line: $out"
# Each signal's run writes its own progress file: with one file, the second
# run's wait saw the first run's '[5/' and signalled a child not yet seer.
for sig in INT TERM; do
  progress=$tmp/progress-$sig
  "$SEER" quantize "$tmp/big/smolvlm-256m-mmproj.gguf" "$tmp/big/q.gguf" Q4_K_M 2>"$progress" &
  pid=$!
  for _ in $(seq 200); do grep -q '\[5/' "$progress" 2>/dev/null && break; sleep 0.05; done
  kill -$sig $pid
  wait $pid; rc=$?
  [ $rc -eq 130 ] || err "SIG$sig: exit $rc, want 130"
  last=$(tr '\r' '\n' < "$progress" | grep -v '^\[' | grep .)
  one_line "$last" && printf '%s' "$last" | grep -q "interrupted" || err "SIG$sig: no one-line 'interrupted' message: $last"
  leftover=$(ls "$tmp/big" | grep -v -e '^smolvlm-256m-')
  [ -z "$leftover" ] || err "SIG$sig: files left behind: $leftover"
done
rm -rf "$tmp/big"

# Byte identity with llama-quantize, every type.
while read -r name type want; do
  out="$tmp/$name-$type.gguf"
  "$SEER" quantize "$cases/$name/model.gguf" "$out" "$type" 2>"$tmp/q.err" || { err "$name $type: seer quantize failed: $(head -1 "$tmp/q.err")"; continue; }
  got=$(/usr/bin/python3 tests/e2e/quantize/tensor_digests.py "$out" | sha256sum | cut -c1-64)
  [ "$got" = "$want" ] || err "$name $type: tensor bytes differ from llama-quantize's"
  ft=$("$SEER" info "$out" 2>/dev/null | grep -c .)
  [ "$ft" -gt 0 ] || err "$name $type: seer info cannot read the output"
  rm -f "$out"
done < "$digests"

# An mmproj: matrices quantized, the rest kept, seer info lists the types.
mm=$cases/qwen3vl-f32/mmproj.gguf
"$SEER" quantize "$mm" "$tmp/mm.gguf" Q8_0 2>"$tmp/q.err" || err "mmproj Q8_0: failed: $(head -1 "$tmp/q.err")"
/usr/bin/python3 tests/e2e/quantize/tensor_digests.py "$tmp/mm.gguf" > "$tmp/mm.txt"
grep -q "^v.blk.0.attn_qkv.weight 8 " "$tmp/mm.txt" || err "mmproj: attention matrix not Q8_0"
grep -q "^v.blk.0.ffn_up.weight 8 " "$tmp/mm.txt" || err "mmproj: FFN matrix not Q8_0"
grep -qE "^v.patch_embd.weight (0|1) " "$tmp/mm.txt" || err "mmproj: patch embedding changed type"
grep -qE "^v.position_embd.weight (0|1) " "$tmp/mm.txt" || err "mmproj: position embedding changed type"
grep -E "(norm|ln[12]|bias)" "$tmp/mm.txt" | grep -vE " (0|1) " | head -1 | grep -q . && err "mmproj: a norm or bias was quantized"
"$SEER" info --all "$tmp/mm.gguf" 2>/dev/null | grep "v.blk.0.attn_qkv.weight" | grep -q Q8_0 ||
  err "seer info --all does not show v.blk.0.attn_qkv.weight as Q8_0"
exit $fail
