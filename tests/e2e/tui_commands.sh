#!/usr/bin/env bash
# Commands and input details: /help, /set, /system, /stats, /tokens inspector,
# /theme (switch live, unknown theme), multi-line input, file names with
# escape sequences neutralised, NO_COLOR and 8-colour terminals, load errors.
. "$(dirname "$0")/tui_lib.bash"
make_model
start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 6 --temp 0
wait_log '^loaded' 15
type_line "/help"
wait_screen "Commands: /image PATH"
type_line "/set top_k 7"
wait_screen "top_k = 7"
wait_screen "k 7 p"                      # the status line follows
type_line "/set bogus 1"
wait_screen "unknown setting 'bogus'"
type_line "/system Answer in French."
wait_screen "system prompt set"
# Multi-line: a trailing backslash continues the line.
tmux -u -L "$SOCK" send-keys -t "$PANE" -l 'first line\'; keys Enter
tmux -u -L "$SOCK" send-keys -t "$PANE" -l 'second line'; keys Enter
wait_log '^done' 20 1
screen | grep -qF "› first line" || fail "multi-line input lost its first line"
screen | grep -qE "^  second line" || fail "multi-line input lost its second line"
# Alt-Enter inserts a newline too.
tmux -u -L "$SOCK" send-keys -t "$PANE" -l 'alpha'; keys M-Enter
tmux -u -L "$SOCK" send-keys -t "$PANE" -l 'beta'; keys Enter
wait_log '^done' 20 2
screen | grep -qF "› alpha" && screen | grep -qE "^  beta" || fail "Alt-Enter did not make a two-line message"
# A bracketed paste keeps its newlines as text: one message, not one per line.
tmux -u -L "$SOCK" set-buffer "$(printf 'pasted one\npasted two')"
tmux -u -L "$SOCK" paste-buffer -p -t "$PANE"
wait_screen "› pasted one"
sleep 0.3
[ "$(grep -cE '^prefill' "$LOG")" -eq 2 ] || fail "the paste was sent line by line"
keys Enter
wait_log '^done' 20 3
screen | grep -qE "^  pasted two" || fail "pasted second line missing"
type_line "/save /nonexistent-dir/x.md"
wait_screen "cannot write /nonexistent-dir/x.md: No such file"
type_line "/stats"
wait_screen "last turn: prefill"
# Which kernels run: /stats names them with OpenBLAS's set, the timings pane
# shows seer's SIMD level.
screen | sed 's/ *│.*//' | tr '\n' ' ' | tr -s ' ' |
  grep -qE "· kernels [a-z0-9-]+( \+ AMX-[A-Z0-9]+)*: prompt [a-z0-9_]+, decode [a-z0-9]+, encode [a-z0-9_]+ · OpenBLAS [A-Za-z0-9_]+" ||
  fail "/stats does not name the kernels"
wait_screen_re "kernels {2,}(scalar|avx2|avx512|neon)"
type_line "/tokens"
wait_screen "Token inspector: 6 tokens"
keys Escape
sleep 0.3
screen | grep -qF "Token inspector" && fail "Esc did not close the inspector"
type_line "/theme light"
wait_screen "theme light"
# Themes from $XDG_CONFIG_HOME/seer/themes: colours apply live; errors name the line.
mkdir -p "$XDG_CONFIG_HOME/seer/themes"
printf '# mine\nuser = #ff0000 default bold\n' > "$XDG_CONFIG_HOME/seer/themes/custom.theme"
printf 'user = #ff0000\nborder = #zz0000\n' > "$XDG_CONFIG_HOME/seer/themes/broken.theme"
type_line "/theme custom"
wait_screen "theme custom"
sleep 0.2
screen_escapes | grep -E "first line" | grep -qE $'\033\\[[0-9;]*38;5;196' || fail "custom theme colour not applied"
type_line "/theme broken"
wait_screen "broken.theme:2: bad colour or"
type_line "/theme nosuch"
wait_screen "no theme 'nosuch'"
type_line "/theme"
wait_screen "available:"
for th in dark light solarized mono; do screen | grep -q "$th" || fail "theme $th not listed"; done
keys C-d; wait_exit 5 >/dev/null
stop_seer

# NO_COLOR: attributes only, no colour sequences at all (also in the image art).
# The second image's file name carries an escape sequence: it must reach the
# screen neutralised.
make_image "$T/q.ppm" 32 32
evil="$T/x$(printf '\033')[31mred.ppm"
make_image "$evil" 8 8
# OpenBLAS made to run narrower kernels than the CPU's (as in info.sh): one
# line of the timings pane says so, /stats gives the warning (stderr is
# hidden under the UI).
prescott=""
[ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo && prescott="OPENBLAS_CORETYPE=Prescott"
EXTRA_ENV="NO_COLOR=1 $prescott" start 120 36 -m "$T/llm.gguf" --mmproj "$T/mmproj.gguf" -n 3 "$T/q.ppm" "$evil"
wait_log '^image' 15 2
sleep 0.3
if [ -n "$prescott" ]; then
  wait_screen_re "kernels +[a-zA-Z0-9+-]+ · BLAS 128"
  type_line "/stats"
  wait_screen "warning: OpenBLAS runs its Prescott kernels (128-bit)"
fi
screen | grep -qF "x␛[31mred.ppm" || fail "escape in a file name was not shown as ␛"
screen_escapes | grep -qF $'\033[31mred' && fail "raw escape sequence from a file name reached the terminal"
screen_escapes | grep -qE $'\033\\[[0-9;]*(38|48);5;' && fail "colours used under NO_COLOR"
screen | grep -qF "▒" || screen | grep -qF "░" || screen | grep -qF "█" || fail "no shade art under NO_COLOR"
keys C-d; wait_exit 5 >/dev/null
stop_seer

# An 8-colour terminal gets only the 8 basic colours.
cat > "$T/run8.sh" <<EOS
TERM=xterm SEER_EVENT_LOG='$LOG' '$SEER' -m '$T/llm.gguf' --mmproj '$T/mmproj.gguf' -n 3 '$T/q.ppm'
echo SEER_EXIT=\$? > '$T/exit'; sleep 60
EOS
tmux -u -L "$SOCK" new-session -d -s "$PANE" -x 120 -y 36 "bash '$T/run8.sh'"
wait_log '^image' 15
sleep 0.3
screen_escapes | grep -qE $'\033\\[[0-9;]*(38|48);5;' && fail "256-colour sequences on an 8-colour terminal"
screen_escapes | grep -qE $'\033\\[[0-9;]*(3[0-7]|4[0-7])m' || fail "no colours on an 8-colour terminal"
keys C-d; wait_exit 5 >/dev/null
stop_seer

# A broken model file: the error is shown in the UI, exit code 1.
head -c 100 /dev/urandom > "$T/bad.gguf"
start 100 30 -m "$T/bad.gguf"
wait_screen "Cannot load the model"
keys x
code=$(wait_exit 5)
[ "$code" = "SEER_EXIT=1" ] || fail "exit after a load error: $code"
echo ok
