#!/usr/bin/env bash
# Terminal safety: hostile bytes from outside (model tokens, GGUF general.name,
# file names) never reach a terminal as controls. A tiny model is rigged
# (tests/tools/make_hostile_model) so that greedy decoding emits, on every
# step, a token holding CSI SGR, OSC 52 (clipboard write), a C1 CSI, a bidi
# override and invalid UTF-8; its general.name holds an OSC 0 (window title)
# and a clear-screen. Checked: headless output on a pty (script), `seer info`,
# error messages naming a hostile file, and the TUI pane under tmux (no
# clipboard buffer, no title change, escapes shown as visible symbols).
source "$(dirname "$0")/tui_lib.bash"
command -v script >/dev/null || { echo "SKIP: script (util-linux) is not installed"; exit 0; }

hex() { printf '%b' "$1" | od -An -v -tx1 | tr -d ' \n'; }
PAYLOAD='\033[31mRED\033]52;c;SGVsbG8=\007\302\2332J\342\200\256BIDI\377\376|'
NAME='evil\033]0;PWNED\007\033[2Jname'
make_model
"$TOOLS/make_hostile_model" "$T/llm.gguf" "$T/hostile.gguf" --bytes "$(hex "$PAYLOAD")" --name-bytes "$(hex "$NAME")" \
  || { echo "FAIL: make_hostile_model"; exit 1; }
EVIL_FILE="$T/$(printf 'file\033]52;c;QUJD\007\033[1mx').gguf"
cp "$T/hostile.gguf" "$EVIL_FILE"

# check_clean FILE WHAT: no ESC, BEL, C1 (raw or UTF-8 encoded), bidi controls; valid UTF-8.
# (CR/LF/TAB are fine: the pty turns \n into \r\n.)
check_clean() {
  python3 - "$1" "$2" <<'PY' || exit 1
import sys, re
data = open(sys.argv[1], "rb").read()
what = sys.argv[2]
def bad(msg):
    print("FAIL: %s: %s in %r" % (what, msg, data[:400])); sys.exit(1)
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    bad("invalid UTF-8 (%s)" % e)
for ch in text:
    o = ord(ch)
    if (o < 0x20 and ch not in "\r\n\t") or o == 0x7f: bad("C0 control U+%04X" % o)
    if 0x80 <= o <= 0x9f: bad("C1 control U+%04X" % o)
    if o in (0x200e, 0x200f, 0x061c) or 0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069: bad("bidi control U+%04X" % o)
PY
}

# 1. headless answer on a pty: text kept, controls neutralised
script -qec "'$SEER' -m '$T/hostile.gguf' -p hi -n 3 --temp 0 -t 2 2>/dev/null" /dev/null </dev/null >"$T/headless.out"
# (script copies the pty's bytes to its stdout; its own log goes to /dev/null)
check_clean "$T/headless.out" "headless on a pty"
grep -q 'RED' "$T/headless.out" && grep -q 'BIDI' "$T/headless.out" || { echo "FAIL: headless lost the text: $(cat -v "$T/headless.out")"; exit 1; }
[ "$(grep -o 'RED' "$T/headless.out" | wc -l)" -ge 3 ] || { echo "FAIL: the rigged model did not emit its token 3 times: $(cat -v "$T/headless.out")"; exit 1; }

# 2. headless to a pipe (stdout not a terminal) is as clean, and --json escapes are JSON's
"$SEER" -m "$T/hostile.gguf" -p hi -n 2 --temp 0 -t 2 >"$T/pipe.out" 2>"$T/pipe.err"
check_clean "$T/pipe.out" "headless to a pipe"
check_clean "$T/pipe.err" "headless stderr"

# 2b. --verbose names the model (general.name) on stderr
script -qec "'$SEER' -m '$T/hostile.gguf' -p hi -n 1 --temp 0 -t 2 --verbose" /dev/null </dev/null >"$T/verbose.out"
check_clean "$T/verbose.out" "headless --verbose"
grep -q 'evil' "$T/verbose.out" || { echo "FAIL: --verbose does not name the model: $(cat -v "$T/verbose.out")"; exit 1; }

# 3. seer info: the model name and the file name, on a pty
script -qec "'$SEER' info '$EVIL_FILE'" /dev/null </dev/null >"$T/info.out"
check_clean "$T/info.out" "seer info"
grep -q 'evil' "$T/info.out" && grep -q 'name' "$T/info.out" || { echo "FAIL: info lost the name: $(cat -v "$T/info.out")"; exit 1; }

# 3b. seer tokenize --pieces prints vocabulary pieces of hostile bytes
script -qec "'$SEER' tokenize -m '$T/hostile.gguf' --pieces -p \"\$(printf 'a\\033]52;c;QQ==\\007\\302\\233b')\"" /dev/null \
  </dev/null >"$T/tok.out"
check_clean "$T/tok.out" "seer tokenize --pieces"
[ "$(grep -c . "$T/tok.out")" -ge 8 ] || { echo "FAIL: tokenize printed too little: $(cat -v "$T/tok.out")"; exit 1; }

# 4. an error naming a hostile file name (missing file; file that is not a GGUF)
script -qec "'$SEER' -m '$EVIL_FILE.missing' -p hi" /dev/null </dev/null >"$T/err1.out"
check_clean "$T/err1.out" "missing-model error"
printf 'not a gguf' >"$EVIL_FILE.bad"
script -qec "'$SEER' -m '$EVIL_FILE.bad' -p hi" /dev/null </dev/null >"$T/err2.out"
check_clean "$T/err2.out" "bad-model error"
script -qec "'$SEER' -m '$T/hostile.gguf' --mmproj '$T/mmproj.gguf' --image '$EVIL_FILE.png' -p hi -n 1" /dev/null </dev/null >"$T/err3.out"
check_clean "$T/err3.out" "missing-image error"

# 5. the TUI: the reply, the status line (model name) and an image's file name in a tmux pane
EVIL_IMG="$T/$(printf 'img\033]2;PWNED\007\033[5m').ppm"
make_image "$EVIL_IMG" 32 32
start 100 30 -m "$EVIL_FILE" --mmproj "$T/mmproj.gguf" --image "$EVIL_IMG" -t 2 --temp 0 -n 4
wait_screen "evil" 20
wait_screen "img␛]2;PWNED" 20
type_line "hi"
wait_screen "BIDI" 30
sleep 1
screen >"$T/pane.txt"
screen_escapes >"$T/pane_e.txt"
title=$(tmux -u -L "$SOCK" display -p -t "$PANE" '#{pane_title}')
[ "$title" != "PWNED" ] || fail "the model name set the window title"
if tmux -u -L "$SOCK" list-buffers 2>/dev/null | grep -q .; then fail "OSC 52 reached the terminal (tmux has a paste buffer)"; fi
grep -q "52;c;SGVsbG8=" "$T/pane.txt" || fail "the OSC 52 payload is not shown as text"
grep -q "RED" "$T/pane.txt" || fail "reply text missing"
# tmux's own rendering of cell attributes is the only escape capture-pane -e may
# show; a raw OSC or BEL would only be there if the pane had passed it through
if grep -qaP '\x07|\x1b\]' "$T/pane_e.txt"; then fail "OSC/BEL in the pane"; fi
[ -n "${SHOW_PANE:-}" ] && cat "$T/pane.txt"
keys C-c
sleep 0.3
keys C-d
echo "PASS terminal_safety"
