#!/usr/bin/env bash
# seer tokenize end to end: exit codes and one-line errors always; with the
# conformance suite present, the ids of a whole prompt (BOS, a literal </s>
# parsed as the special token) and of vocab test strings (--no-special).
set -u
SEER=${SEER:?SEER must point at the seer binary}
fail=0
err() { echo "FAIL: $*"; fail=1; }

# Usage errors: exit 2, one line on stderr.
out=$("$SEER" tokenize -p hi 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || err "missing -m: exit $rc, want 2"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || err "missing -m: error is not one line: $out"
"$SEER" tokenize -m x.gguf --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "unknown option: exit $rc, want 2"
"$SEER" tokenize --help | grep -q "usage: seer tokenize" || err "--help prints no usage"
# File problems: exit 1.
out=$("$SEER" tokenize -m /nonexistent/model.gguf -p hi 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "missing model: exit $rc, want 1"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || err "missing model: error is not one line: $out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'GGUF\3\0\0\0garbage' > "$tmp/bad.gguf"
"$SEER" tokenize -m "$tmp/bad.gguf" -p hi >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || err "corrupt model: exit $rc, want 1"

dir=${CONFORMANCE_DIR:-../shared/conformance}
if [ ! -d "$dir" ]; then
  echo "SKIP: conformance folder not found; only error paths checked"
  exit $fail
fi
vocab="$dir/vocab/ggml-vocab-llama-spm.gguf"
"$SEER" tokenize -m "$vocab" -f /nonexistent/prompt.txt >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || err "missing prompt file: exit $rc, want 1"

# Whole prompt of the text-only LLaMA case: BOS + ids of tokens.json.
case_dir="$dir/cases/text-llama-spm-f32"
want=$(python3 -c 'import json,sys; print(" ".join(map(str, json.load(open(sys.argv[1]))["chunks"][0]["tokens"])))' \
       "$case_dir/expected/tokens.json")
got=$("$SEER" tokenize -m "$vocab" -f "$case_dir/prompt.txt")
[ "$got" = "$want" ] || err "text-llama-spm-f32 prompt: got [$got] want [$want]"
# Same text through stdin.
got=$("$SEER" tokenize -m "$vocab" -f - < "$case_dir/prompt.txt")
[ "$got" = "$want" ] || err "prompt on stdin differs"

# --no-special: no BOS, "</s>" stays text (the vocab test pairs' convention).
got=$("$SEER" tokenize -m "$vocab" --no-special -p "ied 4 ½ months")
[ "$got" = "474 287 29871 29946 29871 30226 7378" ] || err "--no-special: got [$got]"
got=$("$SEER" tokenize -m "$vocab" --no-special -p "a</s>")
case " $got " in *" 2 "*) err "--no-special parsed </s> as EOS: $got";; esac
got=$("$SEER" tokenize -m "$vocab" -p "a</s>")
[ "$got" = "1 263 2" ] || err "special parsing: got [$got] want [1 263 2]"

# --pieces: one id<TAB>piece line per token; control bytes never reach the terminal.
pieces=$("$SEER" tokenize -m "$vocab" --pieces -p $'Hi\x1b[2J')
[ "$(printf '%s\n' "$pieces" | head -1)" = $'1\t<s>' ] || err "--pieces first line: $(printf '%s\n' "$pieces" | head -1)"
printf '%s' "$pieces" | grep -q $'\x1b' && err "--pieces printed a raw ESC"
exit $fail
