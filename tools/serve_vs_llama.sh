#!/usr/bin/env bash
# seer serve beside llama-server on the same GGUF files and the same
# requests (issue 41's side-by-side; not part of make test): time to first
# token and total tokens/s at 1 and 4 concurrent clients, text chats and
# chats with an image, streamed, greedy. Every prompt is different (a
# request number leads it) so that neither server answers from a slot's
# cache. The servers run one after the other, alternated REPS times; the
# table keeps each line's best (lowest TTFT, highest tokens/s).
#   tools/serve_vs_llama.sh LLM.gguf MMPROJ.gguf LLAMA_SERVER [SEER] [THREADS] [REPS]
# e.g. tools/serve_vs_llama.sh .cache/sbs/qwen25vl-3b-{llm,mmproj}.gguf \
#        .cache/llama.cpp/build-native/bin/llama-server ./seer 2 2
set -u
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n 2,11p "$0"; exit 2; }
LLM=$1 MMPROJ=$2 LLAMA_SERVER=$3 SEER=${4:-./seer} THREADS=${5:-2} REPS=${6:-2}
SLOTS=4 CTX=4096
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

port_free() { # PORT: nothing answers there (another run would answer our requests)
    ! curl -s -o /dev/null "http://127.0.0.1:$1/health" || { echo "port $1 is in use" >&2; exit 1; }
}

wait_health() { # PORT: until /health answers 200 (llama-server says 503 while loading)
    for _ in $(seq 600); do
        curl -sf "http://127.0.0.1:$1/health" >/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.5
    done
    return 1
}

run_one() { # NAME PORT: the requests against the server listening on PORT
    LLM=$LLM SBS_NAME=$1 SBS_PORT=$2 python3 - >>"$tmp/results" <<'PY'
import http.client, json, os, sys, threading, time
sys.path.insert(0, "tests/lib")
from png_url import seeded_png_data_url
name, port = os.environ["SBS_NAME"], int(os.environ["SBS_PORT"])
MODEL = os.path.basename(os.environ["LLM"]).removesuffix(".gguf")  # the name seer serve gives the model
TEXT = ("Request {n}. Write a short story about a lighthouse keeper who finds a message in a bottle, "
        "with the weather, the sea and the keeper's thoughts described in plain words.")

def chat(n, with_image, max_tokens):
    content = [{"type": "text", "text": TEXT.format(n=n)}]
    if with_image:
        content.insert(0, {"type": "image_url", "image_url": {"url": seeded_png_data_url(448, n)}})
    body = json.dumps({"model": MODEL, "messages": [{"role": "user", "content": content}], "stream": True,
                       "stream_options": {"include_usage": True}, "max_tokens": max_tokens,
                       "temperature": 0, "seed": 1})
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    t0 = time.time()
    c.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
    r = c.getresponse()
    assert r.status == 200, (r.status, r.read()[:200])
    first = last = None
    chunks = 0
    usage = None
    for raw in r:
        line = raw.decode().strip()
        if not line.startswith("data: "):
            continue
        if line == "data: [DONE]":
            break
        d = json.loads(line[6:])
        if d.get("usage"):
            usage = d["usage"]
        for ch in d.get("choices") or []:
            delta = ch.get("delta") or {}
            if delta.get("content") or delta.get("reasoning_content"):
                now = time.time()
                first = first or now
                last = now
                chunks += 1
    c.close()
    tokens = usage["completion_tokens"] if usage else chunks
    return {"ttft": first - t0, "tokens": tokens, "end": last - t0, "decode": (tokens - 1) / (last - first) if tokens > 1 else 0}

PLAN = [("text", 1, 4, 64), ("text", 4, 8, 64), ("image", 1, 2, 32), ("image", 4, 4, 32)]
seq = [0]
lock = threading.Lock()
for kind, clients, requests, max_tokens in PLAN:
    out = []
    def client(k):
        for i in range(k, requests, clients):
            with lock:
                seq[0] += 1
                n = seq[0]
            out.append(chat(n, kind == "image", max_tokens))
    t0 = time.time()
    ths = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in ths: t.start()
    for t in ths: t.join()
    wall = time.time() - t0
    assert len(out) == requests
    ttft = sorted(o["ttft"] for o in out)
    print(json.dumps({"server": name, "kind": kind, "clients": clients, "requests": requests,
                      "ttft_p50": ttft[len(ttft) // 2], "ttft_max": ttft[-1],
                      "tokens": sum(o["tokens"] for o in out), "tok_s": sum(o["tokens"] for o in out) / wall,
                      "decode_per_client": sum(o["decode"] for o in out) / len(out)}), flush=True)
PY
}

for rep in $(seq "$REPS"); do
    port_free 18431; port_free 18432
    "$SEER" serve -m "$LLM" --mmproj "$MMPROJ" -t "$THREADS" --parallel $SLOTS -c $CTX --port 18431 >"$tmp/seer.log" 2>&1 &
    pid=$!
    wait_health 18431 || { cat "$tmp/seer.log"; exit 1; }
    run_one seer 18431 || exit 1
    kill "$pid"; wait "$pid" 2>/dev/null; pid=
    "$LLAMA_SERVER" -m "$LLM" --mmproj "$MMPROJ" -t "$THREADS" -np $SLOTS -c $((CTX * SLOTS)) --port 18432 \
        --no-webui >"$tmp/llama.log" 2>&1 &
    pid=$!
    wait_health 18432 || { tail -20 "$tmp/llama.log"; exit 1; }
    run_one llama-server 18432 || exit 1
    kill "$pid"; wait "$pid" 2>/dev/null; pid=
done

python3 - "$tmp/results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
best = {}
for r in rows:
    k = (r["kind"], r["clients"], r["server"])
    b = best.setdefault(k, dict(r))
    for f in ("ttft_p50", "ttft_max"):
        b[f] = min(b[f], r[f])
    for f in ("tok_s", "decode_per_client"):
        b[f] = max(b[f], r[f])
print("| chats | clients | seer TTFT p50 (s) | llama-server TTFT p50 (s) | seer tokens/s total | llama-server tokens/s total | seer/llama tokens/s |")
print("|---|---:|---:|---:|---:|---:|---:|")
for kind, clients in sorted({(r["kind"], r["clients"]) for r in rows}, key=lambda k: (k[0] != "text", k[1])):
    s, l = best[(kind, clients, "seer")], best[(kind, clients, "llama-server")]
    print(f"| {kind} | {clients} | {s['ttft_p50']:.2f} | {l['ttft_p50']:.2f} | {s['tok_s']:.1f} | {l['tok_s']:.1f} | {s['tok_s'] / l['tok_s']:.2f} |")
print("tokens per run (seer / llama-server):", {f"{k[0]}x{k[1]}": (best[(k[0], k[1], 'seer')]['tokens'], best[(k[0], k[1], 'llama-server')]['tokens'])
      for k in {(r['kind'], r['clients']) for r in rows}})
PY
