#!/usr/bin/env bash
# Takes the README screenshots: seer in xterm (VT340 emulation: sixel) and in
# a plain xterm (text-art preview: quadrants, the default; sextants; the
# former half blocks), under Xvfb. Sextants need a font that has U+1FB00..:
# DejaVu Sans Mono lacks them and xterm takes them from Noto Sans Symbols2
# (Debian's fonts-noto-core). Run from the repository root after `make`:
# assets/screenshots/take.sh [LLM MMPROJ IMAGE QUESTION]
# (ARTS="sextant" takes only that one; the crops of the preview pane that
# the README shows are made too.)
set -eu
LLM=${1:-assets/models/demo-llm.gguf}
PROJ=${2:-assets/models/demo-mmproj.gguf}
IMG=${3:-assets/images/demo.png}
Q=${4:-What shapes are in the image?}
OUT=assets/screenshots
DISPLAY_NO=:77
Xvfb $DISPLAY_NO -screen 0 1200x760x24 >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null' EXIT
sleep 1
steps="sleep:4;;$Q\\r;;sleep:7;;Describe the image.\\r;;sleep:12"
shoot() { # name, seer options, xterm options…
  local name=$1 opts=$2; shift 2
  DISPLAY=$DISPLAY_NO LANG=C.UTF-8 xterm "$@" -fa 'DejaVu Sans Mono' -fs 11 -geometry 132x38+0+0 \
    -bg '#1c1c1c' -fg '#e4e4e4' -e env SEER_EVENT_LOG=${SEER_EVENT_LOG:-/dev/null} python3 $OUT/drive.py "$steps" ./seer -m "$LLM" --mmproj "$PROJ" --temp 0 -n 40 $opts "$IMG" &
  local xt=$!
  sleep 24
  DISPLAY=$DISPLAY_NO import -window root "$OUT/$name.png"
  kill $xt 2>/dev/null || true
  wait $xt 2>/dev/null || true
}
ARTS=${ARTS:-sixel quadrant sextant halfblock}
case " $ARTS " in *" sixel "*) shoot seer-sixel "" -ti vt340 -xrm 'XTerm*decTerminalID: vt340' -xrm 'XTerm*numColorRegisters: 256' \
  -xrm 'XTerm*maxGraphicSize: 1200x800'
  convert "$OUT/seer-sixel.png" -trim +repage "$OUT/seer-sixel.png" ;;
esac
for art in quadrant sextant halfblock; do
  case " $ARTS " in *" $art "*) ;; *) continue ;; esac
  shoot seer-$art "--preview $art" -tn xterm-256color
  convert "$OUT/seer-$art.png" -trim +repage "$OUT/seer-$art.png"
  convert "$OUT/seer-$art.png" -crop 400x420+792+38 +repage "$OUT/seer-$art-crop.png"
done
echo "wrote $OUT/seer-*.png ($ARTS)"
