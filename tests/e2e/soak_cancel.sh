#!/usr/bin/env bash
# A short soak through the session API (tests/tools/soak_session): 40 turns
# with an image each (context shifting, the per-conversation image limit),
# then 2 x 80 turns cancelled at random points during image encode, prefill
# and generation; after every turn cache rows == conversation tokens, a
# cancelled prefill leaves everything as it was, a cancelled reply is kept as
# streamed. Under `make test SANITIZE=1` this also runs with ASan/LSan.
# The long run (500 turns, valgrind) is tools/soak/run.sh. The cancelled run
# is repeated on LFM2-VL (a recurrent conv state beside the KV cache).
set -u -o pipefail  # a failing soak_session fails the test even though grep filters its output
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOOLS/make_tiny_model" --arch llama --type f32 --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null \
  || { echo "FAIL: make_tiny_model"; exit 1; }
img=tests/fuzz/corpus/image/seed.png
args=(--model "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" --image "$img" --threads 2 --ctx 256)
fail=0
"$TOOLS/soak_session" "${args[@]}" --turns 40 --n-predict 6 || fail=1
for seed in 11 12; do
  "$TOOLS/soak_session" "${args[@]}" --turns 80 --image-every 3 --cancel "$seed" | grep -v '^soak: turn' || fail=1
done
# The same cancels on LFM2-VL, whose short-convolution state must come back
# with the cache (the lfm2vl-f32 conformance files).
lfm2=tests/conformance/cases/lfm2vl-f32
if [ -f "$lfm2/model.gguf" ]; then
  "$TOOLS/soak_session" --model "$lfm2/model.gguf" --mmproj "$lfm2/mmproj.gguf" \
    --image tests/conformance/images/scene-250x170.png --threads 2 --ctx 512 --turns 40 --image-every 3 --cancel 13 \
    | grep -v '^soak: turn' || fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS soak_cancel"
exit $fail
