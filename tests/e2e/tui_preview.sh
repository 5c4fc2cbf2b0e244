#!/usr/bin/env bash
# Image preview: (1) text art in a 256-colour terminal, in each of its glyph
# sets (quadrants, the default; sextants; half blocks): read back from the
# screen into sub-pixels (glyph shapes by their Unicode names, fg/bg colours),
# a picture of colour quadrants keeps its aspect and colours, and striped
# pictures made to map one to one onto the sub-pixel grid come back exactly;
# (2) with --sixel on, the sixel bytes seer emits decode (libsixel's
# sixel2png) to the source image scaled to fit the pane, aspect kept.
. "$(dirname "$0")/tui_lib.bash"
ART_PY="$(dirname "$0")/preview_art.py"
make_model
make_image "$T/quad.ppm" 64 48
# A 120x36 terminal gives a 40x22-cell preview pane at column 80, row 1 (the
# event log says so; checked below). screen-256color has no back-colour erase,
# so curses writes every coloured space (tmux leaves cells cleared with a
# background colour out of its captures).
export TUI_TERM=screen-256color
for art in quadrant sextant halfblock; do
  for kind in vstripes hstripes; do python3 "$ART_PY" make $kind $art 40 22 "$T/$kind.ppm"; done
  args=(--sixel off -n 2 "$T/quad.ppm" "$T/vstripes.ppm" "$T/hstripes.ppm")
  [ $art = quadrant ] || args=(--preview $art "${args[@]}")
  start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" "${args[@]}"
  wait_log '^image' 15
  grep -q "^preview pane 40x22 cells at 80,1$" "$LOG" || fail "preview pane: $(grep -m1 '^preview pane' "$LOG")"
  grep -q "text art $art" "$LOG" || fail "event log does not name the $art text art"
  n=1
  for kind in quad vstripes hstripes; do
    type_line "/images $n"
    wait_screen "Image $n/3 $kind.ppm"
    sleep 0.3
    screen_escapes > "$T/screen.ans"
    python3 "$ART_PY" check $kind $art "$T/screen.ans" 80 1 40 22 "$T/$kind.ppm" > "$T/check.out" 2>&1 \
      || fail "$art text art of $kind.ppm: $(tail -1 "$T/check.out")"
    n=$((n + 1))
  done
  keys C-d; wait_exit 5 >/dev/null
  stop_seer
done
unset TUI_TERM
EXTRA_ENV="" start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" --preview octant "$T/quad.ppm"
for i in $(seq 30); do [ -s "$T/exit" ] && break; sleep 0.1; done
screen | grep -q "^seer: --preview takes quadrant, sextant or halfblock, not 'octant'" || fail "bad --preview not refused"
stop_seer

command -v sixel2png >/dev/null && command -v convert >/dev/null || { echo "ok (sixel part skipped: no sixel2png/convert)"; exit 0; }
EXTRA_ENV="SEER_SIXEL_DUMP='$T/out.six'" start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" --sixel on -n 2 "$T/quad.ppm"
wait_log '^image' 15
for i in $(seq 50); do [ -s "$T/out.six" ] && break; sleep 0.1; done
[ -s "$T/out.six" ] || fail "no sixel output"
head -c 3 "$T/out.six" | od -c | grep -q '033   P' || fail "not a DCS sixel sequence"
sixel2png -i "$T/out.six" -o "$T/out.png" || fail "libsixel cannot decode the bytes"
dims=$(convert "$T/out.png" -format '%w %h' info:)
convert "$T/out.png" -depth 8 rgb:"$T/out.rgb"
pane=$(grep -m1 -oE '^sixel pane [0-9]+x[0-9]+' "$LOG" | cut -d' ' -f3 | tr x ' ')
[ -n "$pane" ] || fail "no sixel pane size in the event log"
$PY - "$T/out.rgb" $dims $pane <<'PY' || fail "decoded sixel does not match the image"
import sys
import numpy as np
w, h = int(sys.argv[2]), int(sys.argv[3])
px = np.fromfile(sys.argv[1], dtype=np.uint8).reshape(h, w, 3).astype(int)
pw, ph = int(sys.argv[4]), int(sys.argv[5])
# Scaled to fit the pane: aspect kept, one side touching the pane's edge.
assert abs(w / h - 64 / 48) < 0.03, f"aspect {w}x{h}"
assert w <= pw and h <= ph and (w == pw or h == ph), f"size {w}x{h} in pane {pw}x{ph}"
exp = np.zeros((h, w, 3), int)
ys, xs = np.mgrid[0:h, 0:w]
top, left = ys < h / 2, xs < w / 2
exp[top & left] = (255, 0, 0); exp[top & ~left] = (0, 255, 0)
exp[~top & left] = (0, 0, 255); exp[~top & ~left] = (255, 255, 255)
# Away from the quadrant edges (filtering blurs them) colours must match.
inner = (np.abs(ys - h / 2) > 3) & (np.abs(xs - w / 2) > 3)
err = np.abs(px - exp)[inner].mean()
assert err < 12, f"mean error {err:.1f}"
PY
echo ok
