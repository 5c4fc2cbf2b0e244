#!/usr/bin/env bash
# seer serve's continuous batching through real HTTP clients: a random
# Q8_0 model (make_tiny_model), 4 slots. Four prompts of different lengths
# are answered one at a time (greedy); then a long streamed reply starts and,
# while it runs, the three others arrive together: they join its decode
# steps at their own positions and leave before it ends. Every reply must
# be the text it was alone, and /metrics must show decode steps that carried
# more than one chat's token.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
# shellcheck source=tests/e2e/serve_lib.bash
. tests/e2e/serve_lib.bash
trap '[ -n "${batch_pid:-}" ] && kill "$batch_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
"$TOOLS/make_tiny_model" --arch llama --type q8_0 --out "$tmp/m.gguf" --layers 2 --embd 256 --ff 768 --heads 4 \
  --kv-heads 2 --vocab 2000 >/dev/null || { echo "FAIL: make_tiny_model"; exit 1; }
serve_start batch -m "$tmp/m.gguf" -t 1 -c 4096 --parallel 4 || exit 1
python3 - "$batch_url" <<'PY' || exit 1
import json, sys, threading, urllib.request
url = sys.argv[1]
prompts = ["hi", "a somewhat longer question about shapes and colours",
           "three", "the longest prompt of them all, so that its cache rows and positions are far from the others"]
limits = [1500, 40, 60, 30]
def ask(i, stream, first=None):
    body = {"messages": [{"role": "user", "content": prompts[i]}], "max_tokens": limits[i], "temperature": 0,
            "stream": stream}
    req = urllib.request.Request(url + "/v1/chat/completions", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as r:
        if not stream:
            return json.loads(r.read())["choices"][0]["message"]["content"]
        text = ""
        for line in r:
            line = line.decode().strip()
            if not line.startswith("data: {"):
                continue
            ch = json.loads(line[6:])["choices"]
            if ch and ch[0]["delta"].get("content"):
                text += ch[0]["delta"]["content"]
                if first:
                    first.set()
        return text
alone = [ask(i, i == 0) for i in range(4)]
assert all(alone), "an empty reply alone"
together = [None] * 4
started = threading.Event()
def run(i):
    together[i] = ask(i, i == 0, started if i == 0 else None)
threads = [threading.Thread(target=run, args=(0,))]
threads[0].start()
assert started.wait(60), "the long reply did not start"
threads += [threading.Thread(target=run, args=(i,)) for i in (1, 2, 3)]
for t in threads[1:]:
    t.start()
for t in threads:
    t.join()
for i in range(4):
    assert together[i] == alone[i], f"prompt {i}: batched reply differs from alone:\n{together[i]!r}\n{alone[i]!r}"
metrics = urllib.request.urlopen(url + "/metrics").read().decode()
steps = {int(l.split('"')[1]): int(l.split()[-1]) for l in metrics.splitlines()
         if l.startswith('seer_decode_steps_total{batch="')}
multi = sum(n for k, n in steps.items() if k > 1)
assert multi > 0, f"no decode step carried more than one chat: {steps}"
print(f"seer serve batching: 4 replies equal alone and together; decode steps by batch size {dict(sorted(steps.items()))}")
PY
serve_stop "$batch_pid" || { echo "FAIL: seer serve did not stop cleanly"; exit 1; }
batch_pid=
