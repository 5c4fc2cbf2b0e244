#!/usr/bin/env bash
# The cache is shared with llama.cpp both ways: llama-mtmd-cli -hf fills it
# from the local hub and seer --offline runs from it; seer -hf fills another
# and llama-mtmd-cli --offline runs from that. Skipped where no llama.cpp
# build is found ($LLAMA_MTMD_CLI, or upstream's AVX2 build beside the tree).
set -u
: "${SEER:?SEER must point at the seer binary}"
here="$(cd "$(dirname "$0")" && pwd)"
CLI="${LLAMA_MTMD_CLI:-}"
for c in "$here/../../../ref/llama.cpp/build-avx2/bin/llama-mtmd-cli" "$HOME/.cache/seer/compare/build-native/bin/llama-mtmd-cli"; do
  [ -z "$CLI" ] && [ -x "$c" ] && CLI="$c"
done
[ -n "$CLI" ] || { echo "SKIP: no llama-mtmd-cli (set LLAMA_MTMD_CLI to run this test)"; exit 0; }
T=$(mktemp -d /tmp/seer-hfl.XXXXXX)
. "$here/hub/hub_lib.bash"
trap 'stop_hub; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/err" ] && { echo "--- stderr:"; tail -5 "$T/err"; }; exit 1; }
make_repos
IMG="$ASSETS/images/demo.png"
ASK=(--image "$IMG" -p "what colour is the circle?" --temp 0 -n 6)

start_hub
export HF_HUB_CACHE="$T/by-llama"
timeout 300 "$CLI" -hf test/tiny:Q8_0 "${ASK[@]}" >/dev/null 2>"$T/err" || fail "llama-mtmd-cli -hf exited $?"
gets=$(grep -c '/resolve/' "$HUB_LOG")
stop_hub   # from here on, no hub at all
got=$("$SEER" -hf test/tiny:Q8_0 --offline "${ASK[@]}" 2>"$T/err") || fail "seer --offline on llama.cpp's cache exited $?"
[ -n "$got" ] || fail "no answer from llama.cpp's cache"
grep -q "image 1: [0-9]* tokens" "$T/err" || fail "seer did not use the projector llama.cpp downloaded"

start_hub
export HF_HUB_CACHE="$T/by-seer"
"$SEER" -hf test/tiny:Q8_0 "${ASK[@]}" >/dev/null 2>"$T/err" || fail "seer -hf exited $?"
stop_hub
timeout 300 "$CLI" -hf test/tiny:Q8_0 --offline "${ASK[@]}" > "$T/out" 2>"$T/err" || fail "llama-mtmd-cli --offline on seer's cache exited $?"
[ -n "$(tr -d '[:space:]' < "$T/out")" ] || fail "llama.cpp gave no answer from seer's cache"
echo "ok (llama.cpp made $gets file requests)"
