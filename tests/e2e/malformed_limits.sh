#!/usr/bin/env bash
# Resource limits end to end: each limit is refused (or warned about) before
# anything big is allocated, with one clear message naming the limit and what
# to do: context size (hard cap and vs this machine's RAM), image pixels,
# image tokens per prompt (context), images per conversation, and a model file
# larger than RAM (mapped: it loads, with a warning about paging).
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
ram_bytes=$(( $(getconf _PHYS_PAGES) * $(getconf PAGESIZE) ))

"$TOOLS/make_tiny_model" --arch llama --type f32 --out "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" >/dev/null \
  || { echo "FAIL: make_tiny_model"; exit 1; }

# expect NAME WANT_RC TEXT CMD...: exit code and a stderr line containing TEXT.
expect() {
  local name=$1 want=$2 text=$3; shift 3
  timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ "$rc" -ne "$want" ]; then err "$name: exit $rc, want $want: $(head -c 600 "$tmp/err")"
  elif ! grep -qF -- "$text" "$tmp/err"; then err "$name: stderr lacks '$text': $(head -c 600 "$tmp/err")"
  else echo "ok $name: $(grep -F -- "$text" "$tmp/err" | head -1 | cut -c1-160)"; fi
}

# 1. context size: the option's cap, then a KV cache larger than this machine's RAM
#    (48 layers x 256-wide K and V: 96 KiB a token; 1M tokens = 96 GiB)
expect "context over the cap" 2 "bad context size" "$SEER" -m "$tmp/llm.gguf" -c 2000000 -p hi -n 1
"$TOOLS/make_tiny_model" --arch llama --type q8_0 --layers 48 --embd 256 --heads 4 --kv-heads 4 --ff 64 \
  --out "$tmp/deep.gguf" >/dev/null || { echo "FAIL: make_tiny_model deep"; exit 1; }
if [ "$ram_bytes" -lt $((96 * 1024 * 1024 * 1024)) ]; then
  /usr/bin/time -f '%M' -o "$tmp/rss" "$SEER" -m "$tmp/deep.gguf" -c 1048576 -p hi -n 1 >/dev/null 2>"$tmp/err"
  rc=$?
  grep -q "more than this machine's" "$tmp/err" && [ "$rc" -eq 1 ] \
    || err "KV cache over RAM: exit $rc: $(head -c 400 "$tmp/err")"
  # refused before allocating: peak RSS stays small (well under 1 GiB)
  rss_kb=$(tail -1 "$tmp/rss")
  [ "${rss_kb:-0}" -lt 1048576 ] || err "KV refusal came after allocating: peak RSS ${rss_kb} KiB"
  echo "ok context vs RAM: $(head -1 "$tmp/err" | cut -c1-160) (peak RSS ${rss_kb} KiB)"
fi

# 2. image pixels: a header claiming 100000x100000 is refused from the header
expect "image pixels" 1 "megapixels" "$SEER" encode --mmproj "$tmp/mmproj.gguf" \
  --image tests/malformed/image/huge-100000x100000.png -o "$tmp/x.f32"

# 3. image tokens per prompt: 5 images of 16 tokens do not fit a 64-token context
python3 - "$tmp/img.ppm" <<'PY'
import sys
w = h = 32
px = bytes(v for y in range(h) for x in range(w) for v in (x * 8, y * 8, 128))
open(sys.argv[1], "wb").write(b"P6 %d %d 255\n" % (w, h) + px)
PY
imgs=(); for i in 1 2 3 4 5; do imgs+=(--image "$tmp/img.ppm"); done
expect "image tokens vs context" 1 "tokens of context but only 64 of 64 are free" \
  "$SEER" -m "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" "${imgs[@]}" -c 64 -p hi -n 1

# 4. images per conversation: more than the engine's limit (64)
imgs=(); for i in $(seq 65); do imgs+=(--image "$tmp/img.ppm"); done
expect "images per prompt" 2 "64" "$SEER" -m "$tmp/llm.gguf" --mmproj "$tmp/mmproj.gguf" "${imgs[@]}" -p hi -n 1

# 5. a model file larger than RAM (sparse: the tail is never read) loads with a warning
cp "$tmp/llm.gguf" "$tmp/big.gguf"
if truncate -s $((ram_bytes + (1 << 30))) "$tmp/big.gguf" 2>/dev/null; then
  expect "model larger than RAM" 0 "more than this machine's" "$SEER" -m "$tmp/big.gguf" -p hi -n 1 --temp 0
  grep -qF "re-read from disk" "$tmp/err" || err "the warning does not say what will happen"
  rm -f "$tmp/big.gguf"
fi

[ "$fail" -eq 0 ] && echo "PASS malformed_limits"
exit $fail
