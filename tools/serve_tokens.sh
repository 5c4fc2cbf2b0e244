#!/usr/bin/env bash
# Total generation throughput of seer serve at 1, 2 and 4 concurrent chat
# clients, or the counts CLIENTS names ("1 6 8"; --parallel is the
# largest), with continuous batching: the running chats share each decode
# step.
# Not part of make test: a benchmark. Each client sends ROUNDS greedy
# requests of MAX_TOKENS tokens one after another (a different prompt each);
# prints the completion tokens per second over all clients, the decode steps
# by batch size /metrics saw, and the load average (the host may be shared).
# PARALLEL=1 gives one slot: the requests run one after another, as seer
# serve ran every chat before continuous batching (the "before" column).
#   [PARALLEL=N] [CLIENTS="1 2 4"] tools/serve_tokens.sh MODEL [SEER] [THREADS] [MAX_TOKENS] [ROUNDS]
# A weight-bound synthetic model (random weights, never-ending replies):
#   build/tests/tools/make_tiny_model --type q4_k --layers 8 --embd 2048 --ff 5632 \
#     --heads 16 --kv-heads 4 --vocab 32000 --out /tmp/synth.gguf
set -u
cd "$(dirname "$0")/.."
MODEL=${1:?usage: tools/serve_tokens.sh MODEL [SEER] [THREADS] [MAX_TOKENS] [ROUNDS]}
SEER=${2:-./seer}
THREADS=${3:-2}
MAX_TOKENS=${4:-64}
ROUNDS=${5:-2}
tmp=$(mktemp -d)
. tests/e2e/serve_lib.bash
trap '[ -n "${tok_pid:-}" ] && kill "$tok_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
CLIENTS=${CLIENTS:-1 2 4}
most=$(printf '%s\n' $CLIENTS | sort -n | tail -1)
serve_start tok -m "$MODEL" -t "$THREADS" --parallel "${PARALLEL:-$most}" -c 2048 || exit 1
python3 - "$tok_url" "$MAX_TOKENS" "$ROUNDS" "$CLIENTS" <<'PY'
import json, os, sys, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
url, max_tokens, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
client_counts = [int(c) for c in sys.argv[4].split()]
def ask(k):
    body = {"messages": [{"role": "user", "content": f"request {k}: tell me about shape number {k * 7}"}],
            "max_tokens": max_tokens, "temperature": 0}
    req = urllib.request.Request(url + "/v1/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())["usage"]["completion_tokens"]
def steps():
    m = urllib.request.urlopen(url + "/metrics").read().decode()
    return {int(l.split('"')[1]): int(l.split()[-1]) for l in m.splitlines() if l.startswith('seer_decode_steps_total{batch="')}
ask(0)  # warm-up: pages the weights in
print(f"{'clients':>7} {'tokens':>7} {'seconds':>8} {'tokens/s':>9}  load avg  steps by batch size")
for clients in client_counts:
    before, load0 = steps(), os.getloadavg()[0]
    t0 = time.time()
    with ThreadPoolExecutor(clients) as ex:
        def client(c):
            return sum(ask(1000 * clients + 10 * c + r) for r in range(rounds))
        total = sum(ex.map(client, range(clients)))
    dt = time.time() - t0
    after = steps()
    delta = {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)}
    print(f"{clients:>7} {total:>7} {dt:>8.2f} {total / dt:>9.1f}  {load0:4.1f}-{os.getloadavg()[0]:4.1f}  {delta}")
PY
serve_stop "$tok_pid" >/dev/null
tok_pid=
