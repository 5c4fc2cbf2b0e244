#!/usr/bin/env bash
# seer -hf against a hub on 127.0.0.1 (tests/e2e/hub/server.py): download
# into an empty cache in the Hugging Face layout, choice of model by tag and
# of the projector (F16 first), re-use without a second download, resume
# after a cut connection and after Ctrl-C, checksum mismatch refused, no disk
# space, offline from the cache, one-line errors (missing tag with the tags
# that exist, missing repository, token), split models, info and bench.
set -u
: "${SEER:?SEER must point at the seer binary}"
T=$(mktemp -d /tmp/seer-hf.XXXXXX)
. "$(dirname "$0")/hub/hub_lib.bash"
trap 'stop_hub; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/err" ] && { echo "--- stderr:"; cat "$T/err"; }; exit 1; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME="$T/home"
mkdir -p "$HOME"
make_repos
IMG="$ASSETS/images/demo.png"
ASK=(--image "$IMG" -p "what colour is the circle?" --temp 0 -n 6 -t 2)
sha() { sha256sum "$1" | cut -d' ' -f1; }
one_line() { [ "$(wc -l < "$T/err")" -eq 1 ] || fail "expected one line on stderr, got $(wc -l < "$T/err")"; }

want=$("$SEER" -m "$HUB_ROOT/test/tiny/tiny-Q8_0.gguf" --mmproj "$HUB_ROOT/test/tiny/mmproj-tiny-F16.gguf" "${ASK[@]}" 2>/dev/null)
[ -n "$want" ] || fail "the demo model gave no answer from local files"

# --- an empty cache: the Q8_0 model (tag in any case) and the F16 projector
start_hub
export HF_HUB_CACHE="$T/cache"
got=$("$SEER" -hf test/tiny:q8_0 "${ASK[@]}" 2>"$T/err") || fail "seer -hf exited $?"
[ "$got" = "$want" ] || fail "answer through -hf '$got', from the files '$want'"
grep -q "downloading tiny-Q8_0.gguf" "$T/err" || fail "no download line for the model"
grep -q "downloading mmproj-tiny-F16.gguf" "$T/err" || fail "no download line for the F16 projector"

# --- the cache layout huggingface_hub and llama.cpp use
C="$HF_HUB_CACHE/models--test--tiny"
commit=$(hub_commit test/tiny)
[ "$(cat "$C/refs/main")" = "$commit" ] || fail "refs/main holds '$(cat "$C/refs/main")', the hub's commit is $commit"
for f in tiny-Q8_0.gguf mmproj-tiny-F16.gguf; do
  s=$(sha "$HUB_ROOT/test/tiny/$f")
  [ -f "$C/blobs/$s" ] && [ ! -L "$C/blobs/$s" ] || fail "no blob $s for $f"
  [ "$(sha "$C/blobs/$s")" = "$s" ] || fail "blob of $f has the wrong bytes"
  [ "$(readlink "$C/snapshots/$commit/$f")" = "../../blobs/$s" ] || fail "snapshot link of $f: $(readlink "$C/snapshots/$commit/$f")"
done
for f in tiny-Q4_K_M.gguf tiny-F16.gguf mmproj-tiny-Q8_0.gguf mmproj-tiny-F32.gguf README.md; do
  [ ! -e "$C/snapshots/$commit/$f" ] || fail "$f was downloaded without being asked for"
done
ls "$C/blobs" | grep -q downloadInProgress && fail "a partial file was left"

# --- re-use: a second run downloads nothing (HF_ENDPOINT, without the final '/', is read too)
before=$(grep -c '/resolve/' "$HUB_LOG")
refs=$(grep -c '/refs ' "$HUB_LOG")
got=$(env -u MODEL_ENDPOINT HF_ENDPOINT="${MODEL_ENDPOINT%/}" "$SEER" -hf test/tiny:Q8_0 "${ASK[@]}" 2>"$T/err") \
  || fail "second run exited $?"
[ "$got" = "$want" ] || fail "second run answered '$got'"
[ "$(grep -c '/resolve/' "$HUB_LOG")" -eq "$before" ] || fail "the second run downloaded again"
[ "$(grep -c '/refs ' "$HUB_LOG")" -eq $((refs + 1)) ] || fail "HF_ENDPOINT was not asked"
grep -q downloading "$T/err" && fail "the second run says it downloads"

# --- no tag: Q4_K_M (the projector is already there); --hf-file picks by name
"$SEER" -hf test/tiny "${ASK[@]}" >/dev/null 2>"$T/err" || fail "-hf without a tag exited $?"
grep -q "downloading tiny-Q4_K_M.gguf" "$T/err" || fail "no tag did not choose Q4_K_M"
[ "$(downloads mmproj-tiny-F16.gguf)" -eq 1 ] || fail "the projector was downloaded twice"
"$SEER" -hf test/tiny --hf-file tiny-F16.gguf --no-mmproj -p hi -n 2 >/dev/null 2>"$T/err" || fail "--hf-file exited $?"
[ -L "$C/snapshots/$commit/tiny-F16.gguf" ] || fail "--hf-file did not fetch tiny-F16.gguf"

# --- one-line errors
"$SEER" -hf test/tiny:Q3_K -p hi >/dev/null 2>"$T/err" && fail "a missing tag succeeded"
one_line
grep -q "no GGUF model for tag Q3_K (tags: F16, Q4_K_M, Q8_0)" "$T/err" || fail "missing tag: $(cat "$T/err")"
"$SEER" -hf test/tiny:Q3_K -p hi --json >"$T/out" 2>"$T/err" && fail "a missing tag succeeded (--json)"
one_line
grep -q '^{"event":"error","message":"test/tiny has no GGUF model for tag Q3_K' "$T/out" || fail "--json error: $(cat "$T/out")"
"$SEER" -hf test/nope -p hi >/dev/null 2>"$T/err" && fail "a missing repository succeeded"
one_line
grep -q "repository test/nope .*not found (HTTP 404)" "$T/err" || fail "missing repository: $(cat "$T/err")"
"$SEER" -hf test/tiny --hf-file nope.gguf -p hi >/dev/null 2>"$T/err" && fail "a missing --hf-file succeeded"
grep -q "has no file nope.gguf" "$T/err" || fail "missing file: $(cat "$T/err")"
"$SEER" -hf 'nobody' -p hi >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "expected user/repo" "$T/err" || fail "bad repository name: $(cat "$T/err")"

# --- split models come as a set (and are refused by name: seer loads single files)
"$SEER" -hf test/split:Q8_0 -p hi >/dev/null 2>"$T/err" && fail "a split model loaded"
grep -q "split GGUF (2 files" "$T/err" || fail "split model: $(cat "$T/err")"
[ "$(downloads big-Q8_0-00001-of-00002.gguf)" -eq 1 ] && [ "$(downloads big-Q8_0-00002-of-00002.gguf)" -eq 1 ] \
  || fail "the split model's parts were not both downloaded"

# --- info and bench through -hf
"$SEER" info -hf test/tiny:Q8_0 > "$T/info" 2>"$T/err" || fail "info -hf exited $?"
grep -q "language model" "$T/info" || fail "info -hf: $(head -3 "$T/info")"
"$SEER" bench -hf test/tiny:Q8_0 -p 8 -n 4 -r 1 -t 1 > "$T/bench" 2>"$T/err" || fail "bench -hf exited $?"
grep -qi "tok/s" "$T/bench" || fail "bench -hf printed no speeds"

# --- the hub cannot be reached, or --offline: the cache alone
stop_hub
got=$("$SEER" -hf test/tiny:Q8_0 "${ASK[@]}" 2>"$T/err") || fail "run with the hub down exited $?"
[ "$got" = "$want" ] || fail "answer with the hub down: '$got'"
grep -q "warning: cannot reach .*using the cache" "$T/err" || fail "no warning that the cache was used"
got=$("$SEER" -hf test/tiny:Q8_0 --offline "${ASK[@]}" 2>"$T/err") || fail "--offline exited $?"
[ "$got" = "$want" ] || fail "--offline answered '$got'"
"$SEER" -hf test/tiny:Q8_0 --offline -p hi -n 2 >/dev/null 2>"$T/err" || fail "--offline text exited $?"
HF_HUB_CACHE="$T/empty" "$SEER" -hf test/tiny:Q8_0 --offline -p hi >/dev/null 2>"$T/err" && fail "--offline with an empty cache succeeded"
one_line
grep -q "not in the cache.*without --offline" "$T/err" || fail "offline, empty cache: $(cat "$T/err")"
HF_HUB_CACHE="$T/empty" "$SEER" -hf test/tiny:Q8_0 -p hi >/dev/null 2>"$T/err" && fail "no hub and no cache succeeded"
one_line
grep -q "cannot reach .*not in the cache" "$T/err" || fail "no hub, no cache: $(cat "$T/err")"

# --- the connection drops half way: the same run resumes with a Range request
start_hub --cut tiny-Q8_0.gguf:500000
export HF_HUB_CACHE="$T/cache-cut"
got=$("$SEER" -hf test/tiny:Q8_0 "${ASK[@]}" 2>"$T/err") || fail "run with a cut connection exited $?"
[ "$got" = "$want" ] || fail "answer after a cut connection: '$got'"
grep -q "/tiny-Q8_0.gguf range=bytes=500000-" "$HUB_LOG" || fail "no resumed request after the cut"
s=$(sha "$HUB_ROOT/test/tiny/tiny-Q8_0.gguf")
[ "$(sha "$HF_HUB_CACHE/models--test--tiny/blobs/$s")" = "$s" ] || fail "the resumed file has the wrong bytes"

# --- Ctrl-C mid-download leaves a partial file the next run resumes
start_hub --stall tiny-Q8_0.gguf:300000
export HF_HUB_CACHE="$T/cache-int"
part="$HF_HUB_CACHE/models--test--tiny/blobs/$s.downloadInProgress"
"$SEER" -hf test/tiny:Q8_0 -p hi 2>"$T/err" >/dev/null &
pid=$!
# seer writes through a 4 KB stdio buffer: the last partial buffer of the
# 300000 stalled bytes reaches the file only when Ctrl-C flushes it
for ((i = 0; i < 100; i++)); do [ "$(stat -c %s "$part" 2>/dev/null || echo 0)" -ge $((300000 - 4096)) ] && break; sleep 0.1; done
# a second seer does not write into the same partial file
"$SEER" -hf test/tiny:Q8_0 -p hi >/dev/null 2>"$T/err2" && fail "two downloads of one file ran at once"
grep -q "tiny-Q8_0.gguf is being downloaded by another process" "$T/err2" || fail "second download: $(cat "$T/err2")"
kill -INT $pid
wait $pid; code=$?
[ $code -eq 130 ] || fail "Ctrl-C during the download: exit $code"
grep -q "stopped at 0.3 of 1.4 MB: the same command resumes it" "$T/err" || fail "Ctrl-C message: $(cat "$T/err")"
[ "$(stat -c %s "$part" 2>/dev/null)" = 300000 ] || fail "the partial file was not kept"
[ ! -e "$HF_HUB_CACHE/models--test--tiny/blobs/$s" ] || fail "a partial download entered the cache"
[ -z "$(ls "$HF_HUB_CACHE/models--test--tiny/snapshots/"*/ 2>/dev/null)" ] || fail "a snapshot link was made for a partial file"
start_hub
got=$("$SEER" -hf test/tiny:Q8_0 "${ASK[@]}" 2>"$T/err") || fail "run after Ctrl-C exited $?"
[ "$got" = "$want" ] || fail "answer after resuming: '$got'"
grep -q "resuming at 0.3 MB" "$T/err" || fail "no resume line: $(cat "$T/err")"
grep -q "/tiny-Q8_0.gguf range=bytes=300000-" "$HUB_LOG" || fail "the next run did not resume with a Range request"

# --- a file whose bytes do not match the hub's SHA-256 is refused and removed
start_hub --corrupt tiny-Q8_0.gguf
export HF_HUB_CACHE="$T/cache-bad"
"$SEER" -hf test/tiny:Q8_0 -p hi >/dev/null 2>"$T/err" && fail "a corrupt download was accepted"
grep -v '^seer: downloading' "$T/err" | grep -v 'MB/s)$' > "$T/err1"; mv "$T/err1" "$T/err"
one_line
grep -q "tiny-Q8_0.gguf: checksum mismatch .*the download was removed" "$T/err" || fail "mismatch: $(cat "$T/err")"
[ -z "$(ls "$HF_HUB_CACHE/models--test--tiny/blobs/" | grep "^$s")" ] || fail "the corrupt file stayed"

# --- no room on disk for the file
start_hub --huge tiny-Q8_0.gguf
export HF_HUB_CACHE="$T/cache-full"
"$SEER" -hf test/tiny:Q8_0 -p hi >/dev/null 2>"$T/err" && fail "a file larger than the disk was accepted"
one_line
grep -q "not enough disk space for tiny-Q8_0.gguf" "$T/err" || fail "disk space: $(cat "$T/err")"

# --- a private repository: HF_TOKEN as a bearer token
start_hub --token hf_testtoken
export HF_HUB_CACHE="$T/cache-token"
"$SEER" -hf test/tiny:Q8_0 -p hi >/dev/null 2>"$T/err" && fail "a private repository without a token succeeded"
one_line
grep -q "HTTP 401.*HF_TOKEN" "$T/err" || fail "no token: $(cat "$T/err")"
HF_TOKEN=hf_testtoken "$SEER" -hf test/tiny:Q8_0 -p hi -n 2 >/dev/null 2>"$T/err" || fail "with HF_TOKEN: exit $?"
echo ok
