# Shared helpers of the tmux-driven UI tests (tests/e2e/tui_*.sh source this).
# Each test gets a private tmux server, a private $HOME/XDG tree, a tiny
# random-weight model written by $TOOLS/make_tiny_model, and an event log
# (SEER_EVENT_LOG) that records what the engine reported.
set -u
: "${SEER:?SEER must point at the seer binary}"
: "${TOOLS:?TOOLS must point at the built test tools}"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }

# A Python with numpy (the Debian one when the first python3 lacks it).
PY=python3
python3 -c 'import numpy' 2>/dev/null || { [ -x /usr/bin/python3 ] && PY=/usr/bin/python3; }

T=$(mktemp -d /tmp/seer-tui.XXXXXX)
SOCK="seer-tui-$$"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
export HOME="$T/home" XDG_STATE_HOME="$T/state" XDG_CONFIG_HOME="$T/config"
mkdir -p "$HOME" "$XDG_STATE_HOME" "$XDG_CONFIG_HOME"
LOG="$T/events.log"
PANE="seer"

cleanup() { tmux -u -L "$SOCK" kill-server 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT

fail() { echo "FAIL: $*"; echo "--- screen:"; screen; echo "--- events:"; tail -20 "$LOG" 2>/dev/null; exit 1; }

# make_model [EXTRA make_tiny_model ARGS…]
make_model() {
  "$TOOLS/make_tiny_model" --arch llama --type f32 --out "$T/llm.gguf" --mmproj "$T/mmproj.gguf" "$@" >/dev/null \
    || { echo "FAIL: make_tiny_model"; exit 1; }
}

# A PPM image: make_image FILE W H (colour quadrants: red, green / blue, white).
make_image() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
px = bytearray()
for y in range(h):
    for x in range(w):
        top, left = y < h // 2, x < w // 2
        px += bytes((255, 0, 0) if top and left else (0, 255, 0) if top else (0, 0, 255) if left else (255, 255, 255))
open(path, "wb").write(b"P6 %d %d 255\n" % (w, h) + bytes(px))
PY
}

# start W H ARGS…: runs seer in a fresh pane of W×H cells (TERM: $TUI_TERM,
# default xterm-256color).
start() {
  local w=$1 h=$2; shift 2
  local cmd="${EXTRA_ENV:-} SEER_EVENT_LOG='$LOG' TERM=${TUI_TERM:-xterm-256color} '$SEER'"
  for a in "$@"; do cmd+=" '$a'"; done
  tmux -u -L "$SOCK" new-session -d -s "$PANE" -x "$w" -y "$h" "$cmd; echo SEER_EXIT=\$? > '$T/exit'; sleep 60"
}

# Ends the seer pane and its tmux server before the next start.
stop_seer() {
  tmux -u -L "$SOCK" kill-server 2>/dev/null
  local i
  for ((i = 0; i < 30; i++)); do
    tmux -u -L "$SOCK" has-session 2>/dev/null || break
    sleep 0.1
  done
  sleep 0.3
  rm -f "$T/exit" "$LOG"
}

screen() { tmux -u -L "$SOCK" capture-pane -p -t "$PANE" 2>/dev/null; }
# With colours; -N keeps trailing blanks (a coloured space is picture).
screen_escapes() { tmux -u -L "$SOCK" capture-pane -e -N -p -t "$PANE" 2>/dev/null; }
keys() { tmux -u -L "$SOCK" send-keys -t "$PANE" "$@"; }
type_line() { tmux -u -L "$SOCK" send-keys -t "$PANE" -l "$1"; tmux -u -L "$SOCK" send-keys -t "$PANE" Enter; }
resize() { tmux -u -L "$SOCK" resize-window -t "$PANE" -x "$1" -y "$2"; }

# wait_screen TEXT [SECONDS]: until the screen shows TEXT.
wait_screen() {
  local i
  for ((i = 0; i < ${2:-10} * 10; i++)); do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "screen never showed: $1"
}

# wait_screen_re REGEX [SECONDS]: until a screen line matches REGEX.
wait_screen_re() {
  local i
  for ((i = 0; i < ${2:-10} * 10; i++)); do
    screen | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  fail "screen never matched: $1"
}

# wait_log REGEX [SECONDS] [COUNT]: until the event log has COUNT matching lines.
wait_log() {
  local i n
  for ((i = 0; i < ${2:-10} * 10; i++)); do
    n=$(grep -cE -- "$1" "$LOG" 2>/dev/null || true)
    [ "${n:-0}" -ge "${3:-1}" ] && return 0
    sleep 0.1
  done
  fail "event log never had ${3:-1}× /$1/"
}

wait_exit() {
  local i
  for ((i = 0; i < ${1:-10} * 10; i++)); do
    [ -s "$T/exit" ] && { cat "$T/exit"; return 0; }
    sleep 0.1
  done
  fail "seer did not exit"
}
