#!/usr/bin/env bash
# seer serve when clients misbehave and when it is told to stop, on a model
# that never ends its reply (make_hostile_model: greedy decoding repeats one
# token), so an uncancelled reply runs for many seconds:
# - a client that disconnects mid-stream frees the worker: the next request
#   is answered at once instead of after the abandoned reply;
# - a client that leaves a non-streaming request is noticed while its reply
#   runs: the job is cancelled and the worker idle long before max_tokens;
# - a client that stalls sending its request is dropped after --timeout while
#   other clients are served;
# - SIGTERM during a streaming reply: the stream ends with data: [DONE]
#   within --shutdown-timeout, the server exits 0.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
# shellcheck source=tests/e2e/serve_lib.bash
. tests/e2e/serve_lib.bash
fail=0
bad() { echo "FAIL: $*"; fail=1; }
trap '[ -n "${loop_pid:-}" ] && kill "$loop_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
"$TOOLS/make_tiny_model" --arch llama --type f32 --out "$tmp/base.gguf" --layers 2 --embd 256 --ff 768 --heads 4 \
  --kv-heads 4 --vocab 2000 >/dev/null || { echo "FAIL: make_tiny_model"; exit 1; }
"$TOOLS/make_hostile_model" "$tmp/base.gguf" "$tmp/loop.gguf" --bytes 61 >/dev/null || { echo "FAIL: make_hostile_model"; exit 1; }
long='{"stream":true,"max_tokens":8000,"temperature":0,"messages":[{"role":"user","content":"hi"}]}'
whole='{"max_tokens":8000,"temperature":0,"messages":[{"role":"user","content":"hi"}]}'
short='{"max_tokens":4,"temperature":0,"messages":[{"role":"user","content":"hello"}]}'
now() { echo "${EPOCHREALTIME/./}"; }           # microseconds
elapsed() { echo $((($(now) - $1) / 1000000)); } # whole seconds since $1
metric() { curl -s "$loop_url/metrics" | awk -v k="$1" '$1 == k { print $2 }'; }
idle() { # waits up to 60 s for the worker to run nothing
  local i
  for i in $(seq 600); do
    [ "$(metric seer_busy)" = 0 ] && return 0
    sleep 0.1
  done
  return 1
}

serve_start loop -m "$tmp/loop.gguf" -t 1 -c 8192 --timeout 2 --shutdown-timeout 1 || exit 1
# 1. A client leaves mid-stream.
curl -sN --max-time 1 "$loop_url/v1/chat/completions" -d "$long" >"$tmp/cut.out"
grep -q '"content":"a"' "$tmp/cut.out" || bad "the long stream did not start: $(head -c 300 "$tmp/cut.out")"
t0=$(now)
r=$(status_of POST "$loop_url/v1/chat/completions" -d "$short" --max-time 60)
took=$(elapsed "$t0")
[[ $r == 200* ]] || bad "request after the disconnect: $r"
[ "$took" -lt 5 ] ||
  bad "the request after a disconnect waited $took s (behind the abandoned 8000-token reply): the slot was not freed"

# 1b. A client leaves a non-streaming request mid-reply (nothing is sent
# until the reply is whole): the worker stops it at once, so it goes idle
# having generated far fewer than the 8000 tokens asked for.
idle || bad "the worker is still busy before the non-streaming disconnect"
gen0=$(metric seer_generated_tokens_total)
curl -s --max-time 1 "$loop_url/v1/chat/completions" -d "$whole" >/dev/null
idle || bad "the worker still runs the abandoned non-streaming reply 60 s later"
gen=$(($(metric seer_generated_tokens_total) - gen0))
[ "$gen" -lt 8000 ] ||
  bad "the abandoned non-streaming reply ran to max_tokens ($gen tokens): its client's departure went unnoticed"

# 2. A client stalls half-way through its request: dropped after --timeout 2,
# others are served meanwhile.
python3 - "${loop_url#http://}" >"$tmp/stall.txt" <<'PY' &
import socket, sys, time
host, port = sys.argv[1].split(":")
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mess")
t0 = time.time()
s.settimeout(20)
try:
    data = s.recv(1000)
except OSError:
    data = b""
print("closed" if not data or b"HTTP/1.1" in data else "open", round(time.time() - t0, 1))
PY
stall=$!
sleep 0.5
r=$(status_of POST "$loop_url/v1/chat/completions" -d "$short" --max-time 10)
[[ $r == 200* ]] || bad "a request while another client stalls: $r"
wait $stall
read -r state secs <"$tmp/stall.txt"
[ "$state" = closed ] && python3 -c "import sys; sys.exit(not 1 <= float(sys.argv[1]) <= 8)" "$secs" ||
  bad "a stalled client: $state after $secs s (--timeout 2)"

# 3. SIGTERM while a reply streams.
curl -sN --max-time 30 "$loop_url/v1/chat/completions" -d "$long" >"$tmp/term.out" &
reader=$!
sleep 1
t0=$(now)
serve_stop "$loop_pid"
rc=$?
took=$(elapsed "$t0")
loop_pid=
wait $reader
[ $rc = 0 ] || bad "SIGTERM: exit status $rc"
[ "$took" -lt 5 ] || bad "SIGTERM took $took s (--shutdown-timeout 1)"
tail -c 20 "$tmp/term.out" | grep -q 'data: \[DONE\]' || bad "the stream cut by SIGTERM has no [DONE]: $(tail -c 200 "$tmp/term.out")"
grep -q '"finish_reason":"stop"' "$tmp/term.out" || bad "the stream cut by SIGTERM has no final chunk"
[ $fail = 0 ] && echo "seer serve: disconnect frees the worker, a stalled client is dropped, SIGTERM ends streams with [DONE]"
exit $fail
