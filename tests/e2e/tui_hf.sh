#!/usr/bin/env bash
# seer -hf in a real terminal: the download's progress bar (MB/s, ETA),
# Ctrl-C during it (exit 130, resumable), then the next start resumes the
# download and the chat answers about an image with the fetched model and
# projector.
. "$(dirname "$0")/tui_lib.bash"
. "$(dirname "$0")/hub/hub_lib.bash"
trap 'stop_hub; cleanup' EXIT
make_repos
export HF_HUB_CACHE="$T/cache"
IMG="$ASSETS/images/demo.png"

start_hub --stall tiny-Q8_0.gguf:300000
EXTRA_ENV="MODEL_ENDPOINT='$MODEL_ENDPOINT' HF_HUB_CACHE='$HF_HUB_CACHE'"
start 80 30 -hf test/tiny:Q8_0 --temp 0 -n 8 "$IMG"
wait_screen "0.3/1.4 MB" 20
# one line within the 80 columns: name, bar, percentage, MB, rate, time left
screen | grep -E "^tiny-Q8_0.gguf +\[#+-+\] +[0-9]+% +0\.3/1\.4 MB +[0-9.]+ MB/s ETA [0-9:-]+ *$" >/dev/null \
  || fail "no progress bar on one line"
keys C-c
code=$(wait_exit 10)
[ "$code" = "SEER_EXIT=130" ] || fail "Ctrl-C during the download: $code"
wait_screen "stopped at 0.3 of 1.4 MB"
stop_seer

start_hub
EXTRA_ENV="MODEL_ENDPOINT='$MODEL_ENDPOINT' HF_HUB_CACHE='$HF_HUB_CACHE'"
start 120 30 -hf test/tiny:Q8_0 --temp 0 -n 8 "$IMG"
wait_log '^loaded' 30
grep -q "/tiny-Q8_0.gguf range=bytes=300000-" "$HUB_LOG" || fail "the second start did not resume the download"
type_line "what colour is the circle?"
wait_log '^image [0-9]+ tokens' 20
wait_log '^done' 30
n=$(grep -m1 -E '^done' "$LOG" | grep -oE 'tokens [0-9]+' | cut -d' ' -f2)
[ "${n:-0}" -gt 0 ] || fail "no reply"
keys C-c; sleep 0.2; keys C-c
code=$(wait_exit 5)
[ "$code" = "SEER_EXIT=0" ] || fail "exit: $code"
echo ok
