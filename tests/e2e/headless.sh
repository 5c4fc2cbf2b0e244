#!/usr/bin/env bash
# Headless chat end to end: tiny models written by make_tiny_model (always),
# and a conformance text model whose greedy tokens llama.cpp computed (when
# the conformance data is present).
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
fail=0
err() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$TOOLS/make_tiny_model" --arch llama --type f32 --out "$tmp/llama.gguf" --mmproj "$tmp/mmproj.gguf" || { echo "FAIL: make_tiny_model"; exit 1; }
"$TOOLS/make_tiny_model" --arch qwen2vl --type q4_k --out "$tmp/qwen.gguf" || { echo "FAIL: make_tiny_model q4_k"; exit 1; }
img=assets/images/demo.png

# Summarise a --json run: "event counts | token ids | done fields" (exits 1 on malformed JSON).
summarise() {
  python3 -c '
import json, sys
ev = [json.loads(l) for l in sys.stdin if l.strip()]
kinds = [e["event"] for e in ev]
toks = [e for e in ev if e["event"] == "token"]
done = [e for e in ev if e["event"] == "done"]
imgs = [e for e in ev if e["event"] == "image"]
prompt = [e for e in ev if e["event"] == "prompt"]
assert kinds[-1] in ("done", "error"), kinds
for t in toks: assert isinstance(t["text"], str) and t["ms"] >= 0 and 0 <= t["prob"] <= 1
d = done[0] if done else {}
if d: assert d["gen_tokens"] == len(toks), (d, len(toks))
print("images=%s prompt=%s tokens=%s stop=%s" % (
  ",".join(str(i["n_tokens"]) for i in imgs), prompt[0]["n_tokens"] if prompt else "-",
  " ".join(str(t["id"]) for t in toks), d.get("stop", "-")))
'
}

# 1. greedy is deterministic, events are well-formed, the image takes its 16 tokens (56/14 squared)
a=$("$SEER" -m "$tmp/llama.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" -p "What is in the picture?" \
     -n 8 --temp 0 --json -t 2 2>"$tmp/err1" | summarise) || err "json run 1: $(cat "$tmp/err1")"
b=$("$SEER" -m "$tmp/llama.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" -p "What is in the picture?" \
     -n 8 --temp 0 --json -t 1 2>/dev/null | summarise) || err "json run 2"
[ -n "$a" ] && [ "$a" = "$b" ] || err "greedy runs differ (or are empty) with 2 and 1 threads: '$a' vs '$b'"
grep -q '^images=16 ' <<<"$a" || err "image event: $a"
grep -Eq 'stop=(limit|eog)$' <<<"$a" || err "stop reason: $a"

# 2. seeded sampling is reproducible; another seed gives another reply (16 tokens at temp 1.5)
s1=$("$SEER" -m "$tmp/llama.gguf" -p "Tell me a story" -n 16 --temp 1.5 --top-k 0 --top-p 1 --min-p 0 --seed 11 --json 2>/dev/null | summarise)
s2=$("$SEER" -m "$tmp/llama.gguf" -p "Tell me a story" -n 16 --temp 1.5 --top-k 0 --top-p 1 --min-p 0 --seed 11 --json 2>/dev/null | summarise)
s3=$("$SEER" -m "$tmp/llama.gguf" -p "Tell me a story" -n 16 --temp 1.5 --top-k 0 --top-p 1 --min-p 0 --seed 12 --json 2>/dev/null | summarise)
[ -n "$s1" ] && [ "$s1" = "$s2" ] || err "same seed, different replies: '$s1' vs '$s2'"
[ "$s1" != "$s3" ] || err "seeds 11 and 12 gave the same reply: $s1"

# 3. the chat template adds tokens around the prompt; --raw does not
raw=$("$SEER" -m "$tmp/llama.gguf" -p "hello" -n 1 --temp 0 --raw --json 2>/dev/null | summarise)
tpl=$("$SEER" -m "$tmp/llama.gguf" -p "hello" -n 1 --temp 0 --json 2>/dev/null | summarise)
grep -q 'prompt=3 ' <<<"$raw" || err "--raw 'hello' should be 3 tokens (he, ll, o): $raw"
p_tpl=$(sed -n 's/.*prompt=\([0-9]*\).*/\1/p' <<<"$tpl")
[ "${p_tpl:-0}" -gt 10 ] || err "templated prompt too short: $tpl"

# 4. plain mode: text on stdout without escape bytes, timings on stderr, prompt from a file and stdin
printf 'Describe \033[31m this' > "$tmp/prompt.txt"
"$SEER" -m "$tmp/qwen.gguf" -f "$tmp/prompt.txt" -n 12 --temp 0.7 --seed 3 >"$tmp/out" 2>"$tmp/err" || err "plain run: $(cat "$tmp/err")"
if grep -q $'\033' "$tmp/out"; then err "an escape byte reached stdout"; fi
grep -q 'tok/s' "$tmp/err" || err "no timing summary on stderr: $(cat "$tmp/err")"
echo "hello" | "$SEER" -m "$tmp/qwen.gguf" -n 2 --temp 0 >/dev/null 2>&1 || err "prompt from standard input"

# 5. usage errors exit 2, runtime errors 1 with a JSON error event
"$SEER" -m "$tmp/llama.gguf" -p x --bogus >/dev/null 2>&1; [ $? -eq 2 ] || err "unknown flag: exit not 2"
"$SEER" -m "$tmp/missing.gguf" -p x >/dev/null 2>"$tmp/err"; [ $? -eq 2 ] || err "missing model: exit not 2"
[ "$(cat "$tmp/err")" = "seer: $tmp/missing.gguf: No such file or directory" ] || err "missing model: $(cat "$tmp/err")"
# a folder or a device where a file belongs says which, in one line (and as a JSON error event)
mkdir -p "$tmp/folder.png"
out=$("$SEER" -m "$tmp/llama.gguf" --mmproj "$tmp/mmproj.gguf" --image "$tmp/folder.png" -p x --json 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "seer: $tmp/folder.png: is a directory, not a file" ] || err "folder as image: rc $rc, $(cat "$tmp/err")"
grep -q '"event":"error".*is a directory' <<<"$out" || err "folder as image: no error event: $out"
"$SEER" -m /dev/null -p x >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "seer: /dev/null: not a regular file" ] || err "device as model: rc $rc, $(cat "$tmp/err")"
"$SEER" -m "$tmp/llama.gguf" --image "$img" -p x >/dev/null 2>&1; [ $? -eq 2 ] || err "image without mmproj: exit not 2"
"$SEER" -m "$tmp/llama.gguf" -p x --temp abc >/dev/null 2>&1; [ $? -eq 2 ] || err "bad --temp: exit not 2"
"$SEER" -m "$tmp/llama.gguf" -p x --chat-template nope >/dev/null 2>&1; [ $? -eq 2 ] || err "bad template: exit not 2"
out=$("$SEER" -m "$tmp/mmproj.gguf" -p x --json 2>"$tmp/err"); rc=$?
[ $rc -eq 1 ] || err "mmproj as model: exit $rc"
grep -q '"event":"error"' <<<"$out" || err "no error event: $out"
grep -q 'vision projector' "$tmp/err" || err "error message: $(cat "$tmp/err")"
"$SEER" --help | grep -q -- '--mmproj' || err "--help lacks --mmproj"

# 6. a conformance text model: the greedy reply equals llama.cpp's greedy tokens (computed with an F32 KV cache)
conf=${CONFORMANCE_DIR:-../shared/conformance}
case_dir="$conf/cases/text-llama-spm-f32"
if [ -f "$case_dir/case.json" ] && [ -f "$conf/cases/llava15-f32/model.gguf" ]; then
  got=$("$SEER" -m "$conf/cases/llava15-f32/model.gguf" --raw -f "$case_dir/prompt.txt" -n 16 --temp 0 --kv-type f32 --json 2>"$tmp/err" |
        python3 -c 'import json,sys; print(" ".join(str(e["id"]) for e in map(json.loads, sys.stdin) if e["event"]=="token"))')
  want=$(python3 -c 'import json,sys; print(" ".join(map(str, json.load(open(sys.argv[1]))["tokens"])))' "$case_dir/expected/greedy.json")
  [ "$got" = "$want" ] || err "conformance greedy: got '$got', want '$want' ($(cat "$tmp/err"))"
else
  echo "SKIP: conformance text model not found under $conf"
fi

# 7. a conformance VLM through the CLI (--raw prompt with its marker, --image, llama.cpp's image preprocessing):
# llama.cpp's greedy tokens
vcase="$conf/cases/qwen25vl-f32"
if [ -f "$vcase/model.gguf" ] && [ -f "$vcase/mmproj.gguf" ]; then
  got=$("$SEER" -m "$vcase/model.gguf" --mmproj "$vcase/mmproj.gguf" --image "$conf/images/test-1.jpeg" --raw \
        -f "$vcase/prompt.txt" -n 16 --temp 0 --kv-type f32 --image-preproc llamacpp --json 2>"$tmp/err" |
        python3 -c 'import json,sys
ev=[json.loads(l) for l in sys.stdin]
print([e["n_tokens"] for e in ev if e["event"]=="prompt"][0], " ".join(str(e["id"]) for e in ev if e["event"]=="token"))')
  want=$(python3 -c 'import json,sys; d=sys.argv[1]
print(json.load(open(d+"/expected/tokens.json"))["n_tokens"], " ".join(map(str, json.load(open(d+"/expected/greedy.json"))["tokens"])))' "$vcase")
  [ "$got" = "$want" ] || err "conformance VLM: got '$got', want '$want' ($(cat "$tmp/err"))"
else
  echo "SKIP: conformance VLM not found under $conf"
fi

# 8. the KV cache type: f16 (the default) and f32 both answer with an image; another type is a usage error naming it
for kv in f16 f32; do
  k=$("$SEER" -m "$tmp/llama.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" -p "What is in the picture?" -n 4 --temp 0 \
       --kv-type $kv --json 2>"$tmp/err" | summarise) || err "--kv-type $kv: $(cat "$tmp/err")"
  grep -Eq '^images=16 prompt=[0-9]+ tokens=[0-9]+( [0-9]+){3} ' <<<"$k" || err "--kv-type $kv run: $k"
done
"$SEER" -m "$tmp/llama.gguf" -p x --kv-type q8_0 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "kv-type.*'q8_0'" "$tmp/err" || err "bad --kv-type: exit $rc, $(cat "$tmp/err")"

exit $fail
