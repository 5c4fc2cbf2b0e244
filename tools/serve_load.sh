#!/usr/bin/env bash
# A bounded load test of seer serve on 127.0.0.1 (not part of make test):
# two servers (chat on the demo model, embeddings on the search model), two
# rounds of 64 requests from 16 concurrent clients, mixed: chat with and
# without an image (half streamed), text and image embeddings. Every reply
# must be complete (a streamed one ends with [DONE]); prints p50/p95 latency
# per kind, the servers' RSS after each round (it must not grow by more than
# 10%), then the embedding server's images/s at 1, 4 and 16 concurrent
# clients (one image each) beside one client sending them one by one.
#   tools/serve_load.sh [SEER] [THREADS]
set -u
cd "$(dirname "$0")/.."
SEER=${1:-./seer}
THREADS=${2:-2}
tmp=$(mktemp -d)
. tests/e2e/serve_lib.bash
trap 'for p in ${chat_pid:-} ${emb_pid:-}; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
M=assets/models
serve_start chat -m $M/demo-llm.gguf --mmproj $M/demo-mmproj.gguf -t "$THREADS" --parallel 4 || exit 1
serve_start emb -m $M/search-llm.gguf --mmproj $M/search-mmproj.gguf --embeddings -t "$THREADS" || exit 1
python3 - "$chat_url" "$emb_url" "$chat_pid" "$emb_pid" <<'PY'
import base64, json, sys, threading, time, urllib.request
from concurrent.futures import ThreadPoolExecutor
chat_url, emb_url, chat_pid, emb_pid = sys.argv[1:5]
imgs = [base64.b64encode(open(f"assets/images/{n}.png", "rb").read()).decode() for n in ("demo", "two-shapes", "four-shapes")]
def post(url, body, stream=False):
    t0 = time.time()
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=300) as r:
        data = r.read().decode()
    dt = time.time() - t0
    if stream:
        assert data.endswith("data: [DONE]\n\n"), "stream without [DONE]"
        chunks = [json.loads(l[6:]) for l in data.split("\n\n") if l.startswith("data: {")]
        assert any(c["choices"] and c["choices"][0]["finish_reason"] for c in chunks), "no final chunk"
    else:
        d = json.loads(data)
        assert d.get("choices") or d.get("data"), "empty reply"
    return dt
def job(i):
    kind = ("chat", "chat-image", "embed-text", "embed-image")[i % 4]
    img = imgs[i % 3]
    if kind.startswith("chat"):
        content = [{"type": "text", "text": "What shapes are in the image?"}]
        if kind == "chat-image":
            content.insert(0, {"type": "image_url", "image_url": {"url": "data:image/png;base64," + img}})
        return kind, post(chat_url + "/v1/chat/completions", {"messages": [{"role": "user", "content": content}], "max_tokens": 32, "stream": i % 8 < 4}, i % 8 < 4)
    inp = f"a shape number {i}" if kind == "embed-text" else {"image": "data:image/png;base64," + img}
    return kind, post(emb_url + "/v1/embeddings", {"input": [inp]})
def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
rss_seen = []
for rnd in (1, 2):
    t0 = time.time()
    with ThreadPoolExecutor(16) as ex:
        results = list(ex.map(job, range(64)))
    wall = time.time() - t0
    assert len(results) == 64
    print(f"round {rnd}: 64/64 complete in {wall:.1f} s ({64 / wall:.1f} req/s)")
    for kind in ("chat", "chat-image", "embed-text", "embed-image"):
        lat = sorted(dt for k, dt in results if k == kind)
        print(f"  {kind:12s} n={len(lat):2d} p50 {1000 * lat[len(lat) // 2]:7.0f} ms  p95 {1000 * lat[int(len(lat) * 0.95)]:7.0f} ms")
    rss_seen.append((rss(chat_pid), rss(emb_pid)))
    print(f"  RSS: chat server {rss_seen[-1][0]} MB, embeddings server {rss_seen[-1][1]} MB")
grew = [b > a * 1.1 for a, b in zip(rss_seen[0], rss_seen[1])]
if any(grew):
    print("FAIL: RSS grew by more than 10% between the rounds"); sys.exit(1)
one = {"image": "data:image/png;base64," + imgs[0]}
t0 = time.time()
for _ in range(16): post(emb_url + "/v1/embeddings", {"input": [one]})
seq = 16 / (time.time() - t0)
print(f"embeddings, one image a request: one by one {seq:.1f} images/s")
for clients in (1, 4, 16):
    t0 = time.time()
    with ThreadPoolExecutor(clients) as ex:
        list(ex.map(lambda _: post(emb_url + "/v1/embeddings", {"input": [one]}), range(32)))
    print(f"  {clients:2d} concurrent clients: {32 / (time.time() - t0):.1f} images/s")
met = urllib.request.urlopen(emb_url + "/metrics").read().decode()
calls = int(next(l.split()[1] for l in met.splitlines() if l.startswith("seer_vision_batches_total")))
images = int(next(l.split()[1] for l in met.splitlines() if l.startswith("seer_vision_batch_images_total")))
print(f"  vision encoder calls {calls} for {images} images (mean batch {images / max(calls, 1):.2f})")
PY
