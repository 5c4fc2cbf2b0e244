#!/usr/bin/env bash
# `seer info` on Qwen3-VL, Gemma 3, InternVL, Pixtral, MobileVLM, MiniCPM-V and dots.ocr mmproj files (the conformance cases'):
# the parts that are not metadata keys are described — DeepStack blocks and
# the row width they make, Gemma 3's pooling — and a projector seer cannot
# run says why in one line.
set -u
: "${SEER:?SEER must point at the seer binary}"
cases="$(cd "$(dirname "$0")/../conformance/cases" && pwd)"
fail() { echo "FAIL: $*"; exit 1; }
checked=0

g="$cases/gemma3-f32/mmproj.gguf"
if [ -f "$g" ]; then
  out=$("$SEER" info "$g") || fail "seer info $g"
  echo "$out" | grep -qE '^support +yes$' || fail "gemma3: no 'support yes' line"$'\n'"$out"
  echo "$out" | grep -qE '^pooling +4×4 average over the 16×16 patch grid → 16 tokens$' \
    || fail "gemma3: pooling line"$'\n'"$out"
  checked=$((checked + 1))
fi

q="$cases/qwen3vl-f32/mmproj.gguf"
if [ -f "$q" ]; then
  out=$("$SEER" info "$q") || fail "seer info $q"
  echo "$out" | grep -qE '^deepstack +block [0-9]+(, block [0-9]+)*$' || fail "qwen3vl: deepstack line"$'\n'"$out"
  n=$(echo "$out" | grep -E '^deepstack' | grep -o 'block' | wc -l)
  echo "$out" | grep -qE "^embeddings +[0-9]+ wide \(LLM width [0-9]+ × $((n + 1)): main \+ $n DeepStack\)$" \
    || fail "qwen3vl: embeddings line"$'\n'"$out"
  checked=$((checked + 1))
fi

i="$cases/internvl3-f32/mmproj.gguf"
if [ -f "$i" ]; then
  out=$("$SEER" info "$i") || fail "seer info $i"
  echo "$out" | grep -qE '^support +yes$' || fail "internvl: no 'support yes' line"$'\n'"$out"
  echo "$out" | grep -qE '^tiles +1 to 6 of 112×112 px \(14 grids\) \+ overview, each 16 tokens \(2×2 pixel unshuffle\)$' \
    || fail "internvl: tiles line"$'\n'"$out"
  checked=$((checked + 1))
fi

for c in pixtral-f32:16:1×1:': none' mistral3-q8_0:32:2×2:''; do
  IFS=: read -r name step merge none <<<"$c"
  m="$cases/$name/mmproj.gguf"
  [ -f "$m" ] || continue
  out=$("$SEER" info "$m") || fail "seer info $m"
  echo "$out" | grep -qF "grid          any size in $step px steps ($merge patch merger$none), 8 to 1024 tokens, [IMG_BREAK] after each row, [IMG_END] after the image" \
    || fail "$name: grid line"$'\n'"$out"
  checked=$((checked + 1))
done

for c in mobilevlm-ldp-f32:'MLP, two MobileNetV3 blocks (the second with stride 2)' \
         mobilevlm2-ldpv2-q8_0:'MLP, 2×2 average, depthwise-conv positions (PEG)'; do
  IFS=: read -r name how <<<"$c"
  m="$cases/$name/mmproj.gguf"
  [ -f "$m" ] || continue
  out=$("$SEER" info "$m") || fail "seer info $m"
  echo "$out" | grep -qE '^support +yes$' || fail "$name: no 'support yes' line"$'\n'"$out"
  echo "$out" | grep -qF "pooling       $how: the 24×24 patch grid → 144 tokens" || fail "$name: pooling line"$'\n'"$out"
  checked=$((checked + 1))
done

for c in 'minicpmv26-f32|MiniCPM-V 2.6 (version 3): 64 learned queries|<slice>…</slice> each' \
         'minicpmv25-f32|MiniCPM-Llama3-V 2.5 (version 2): 96 learned queries|<image>…</image> each inside <slice>…</slice>' \
         'minicpmv45-q8_0-twoimg|MiniCPM-V 4.5 (version 6): 16 learned queries|<slice>…</slice> each'; do
  IFS='|' read -r name resampler slices <<<"$c"
  m="$cases/$name/mmproj.gguf"
  [ -f "$m" ] || continue
  out=$("$SEER" info "$m") || fail "seer info $m"
  echo "$out" | grep -qE '^support +yes$' || fail "$name: no 'support yes' line"$'\n'"$out"
  echo "$out" | grep -qF "resampler     $resampler, 1 × 128-wide heads, 2-D sin/cos key positions" \
    || fail "$name: resampler line"$'\n'"$out"
  echo "$out" | grep -qE "^slices +overview \+ up to 9 slices of about 112×112 px \(14 px steps\), [0-9]+ tokens each, $slices\$" \
    || fail "$name: slices line"$'\n'"$out"
  checked=$((checked + 1))
done

# Gemma 4 E2B/E4B-style clippable linears: the bounds are counted and applied
for c in gemma4-clip-f32:'52 bounds on the linears' gemma4-31b-f32:'none \(no clippable linears\)'; do
  name=${c%%:*} want=${c#*:}
  m="$cases/$name/mmproj.gguf"
  [ -f "$m" ] || continue
  out=$("$SEER" info "$m") || fail "seer info $m"
  echo "$out" | grep -qE '^support +yes$' || fail "$name: no 'support yes' line"$'\n'"$out"
  echo "$out" | grep -qE "^clipping +$want" || fail "$name: clipping line"$'\n'"$out"
  checked=$((checked + 1))
done

# dots.ocr's file says image size 0: its pixel budget decides, as the grid line says
d="$cases/dotsocr-f32/mmproj.gguf"
if [ -f "$d" ]; then
  out=$("$SEER" info "$d") || fail "seer info $d"
  echo "$out" | grep -qE '^image size +any \(the pixel budget below\)$' || fail "dots.ocr: image size line"$'\n'"$out"
  echo "$out" | grep -qE '^grid +any size in 28 px steps, [0-9]+ to [0-9]+ pixels \([0-9]+ to [0-9]+ tokens, 2×2 pixel unshuffle\), no learned positions' \
    || fail "dots.ocr: grid line"$'\n'"$out"
  checked=$((checked + 1))
fi

# A projector seer does not run: the support line names it.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -f "$g" ]; then
  python3 - "$g" "$tmp/ldp.gguf" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
# same length as "gemma3" so the GGUF string lengths stay right
open(sys.argv[2], "wb").write(data.replace(b"\x06\x00\x00\x00\x00\x00\x00\x00gemma3", b"\x06\x00\x00\x00\x00\x00\x00\x00ldpv3x", 1))
PY
  out=$("$SEER" info "$tmp/ldp.gguf") || fail "seer info on an unsupported projector failed"
  echo "$out" | grep -qE "^support +no: .*projector type 'ldpv3x' is not supported" || fail "unsupported: $out"
fi
[ "$checked" -gt 0 ] || { echo "SKIP: no Qwen3-VL / Gemma 3 / InternVL case files"; exit 0; }
echo ok
