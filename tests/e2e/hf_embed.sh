#!/usr/bin/env bash
# seer embed -hf against a hub on 127.0.0.1 (tests/e2e/hub/server.py) serving
# the bundled search model as test/search: the model and its projector are
# downloaded into the cache once, the vectors equal those of the local
# files, a second run downloads nothing, --offline works from the cache, and
# the one-line usage errors.
set -u
: "${SEER:?SEER must point at the seer binary}"
T=$(mktemp -d /tmp/seer-hfe.XXXXXX)
. "$(dirname "$0")/hub/hub_lib.bash"
trap 'stop_hub; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/err" ] && { echo "--- stderr:"; cat "$T/err"; }; exit 1; }
export LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME="$T/home"
mkdir -p "$HOME" "$HUB_ROOT/test/search"
cp "$ASSETS/models/search-llm.gguf" "$HUB_ROOT/test/search/search-F16.gguf"
cp "$ASSETS/models/search-mmproj.gguf" "$HUB_ROOT/test/search/mmproj-search-F16.gguf"
IMG="$ASSETS/images/four-shapes.png"
IN=(--image "$IMG" -p "a red circle" --role query --format jsonl -t 1)

want=$("$SEER" embed -m "$ASSETS/models/search-llm.gguf" --mmproj "$ASSETS/models/search-mmproj.gguf" "${IN[@]}" \
  2>"$T/err") || fail "local files exited $?"
start_hub
export HF_HUB_CACHE="$T/cache"
got=$("$SEER" embed -hf test/search:F16 "${IN[@]}" 2>"$T/err") || fail "seer embed -hf exited $?"
[ "$got" = "$want" ] || fail "the vectors through -hf differ from the local files'"
grep -q "downloading search-F16.gguf" "$T/err" || fail "no download line for the model"
grep -q "downloading mmproj-search-F16.gguf" "$T/err" || fail "no download line for the projector"
before=$(grep -c '/resolve/' "$HUB_LOG")
got=$("$SEER" embed -hf test/search:F16 "${IN[@]}" 2>"$T/err") || fail "second run exited $?"
[ "$got" = "$want" ] && [ "$(grep -c '/resolve/' "$HUB_LOG")" -eq "$before" ] || fail "the second run downloaded again"
stop_hub
got=$("$SEER" embed -hf test/search:F16 --offline "${IN[@]}" 2>"$T/err") || fail "--offline exited $?"
[ "$got" = "$want" ] || fail "--offline from the cache gave other vectors"
# Text only: the projector is not needed, so an empty cache fetches the model alone.
start_hub
HF_HUB_CACHE="$T/cache2" "$SEER" embed -hf test/search:F16 -p "two blue squares" -t 1 >/dev/null 2>"$T/err" ||
  fail "text through -hf exited $?"
grep -q "downloading mmproj" "$T/err" && fail "a text-only run downloaded the projector"

expect_usage() { # pattern args…
  local pat=$1; shift
  "$SEER" embed "$@" >/dev/null 2>"$T/err"; local st=$?
  [ "$st" = 2 ] && grep -q -- "$pat" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] || fail "seer embed $* -> $st"
}
expect_usage "either -m or -hf" -hf test/search -m "$ASSETS/models/search-llm.gguf" -p x
expect_usage "is required" -p x
expect_usage "needs a value\|missing value" -p x -hf
echo "ok: -hf embeds as the local files, cached, offline"
