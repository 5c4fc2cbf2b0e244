#!/usr/bin/env bash
# seer serve encodes the images of chats admitted together in shared vision
# passes, through curl: a Qwen2.5-VL tower (seer bench --synth
# tiny-qwen25vl: the family whose tower takes several images a pass) before
# a random qwen2vl LLM (make_tiny_model, whose greedy replies differ from
# image to image). Four chats with an image each (four different pictures
# and sizes) are answered one at a time (greedy, one slot); then a fresh
# server with 5 slots gets them together while a long text prompt's
# prefill keeps its worker busy, so that they are admitted together. Every reply must be the one it
# got alone, and /metrics must show fewer vision passes than images encoded
# (a pass that carried more than one image); the round is tried up to 3
# times, in case the four did not queue in time.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SEER" bench --synth tiny-qwen25vl --out "$tmp" >/dev/null 2>&1 || { echo "FAIL: seer bench --synth tiny-qwen25vl"; exit 1; }
"$TOOLS/make_tiny_model" --arch qwen2vl --type q8_0 --out "$tmp/m.gguf" --layers 2 --embd 256 --ff 768 --heads 4 \
  --kv-heads 2 --vocab 2000 >/dev/null || { echo "FAIL: make_tiny_model"; exit 1; }
SEER="$SEER" TMP="$tmp" python3 - <<'PY'
import json, os, re, subprocess, sys, threading, time
sys.path.insert(0, "tests/lib")
from png_url import png_data_url
SEER, TMP = os.environ["SEER"], os.environ["TMP"]

class Server:
    def __init__(self, parallel):
        self.p = subprocess.Popen([SEER, "serve", "-m", TMP + "/m.gguf", "--mmproj", TMP + "/tiny-qwen25vl-mmproj.gguf",
                                   "-t", "1", "--parallel", str(parallel), "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        m = re.search(r"listening on (http://127\.0\.0\.1:\d+)", self.p.stdout.readline())
        if not m:
            sys.exit("FAIL: seer serve did not start")
        self.url = m.group(1)
    def post(self, body):
        out = subprocess.run(["curl", "-s", "-H", "Content-Type: application/json", "--data-binary", "@-",
                              self.url + "/v1/chat/completions"], input=json.dumps(body), capture_output=True,
                             text=True, timeout=300).stdout
        return json.loads(out)
    def ask(self, i):
        r = self.post({"messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": images[i]}}, {"type": "text", "text": questions[i]}]}],
            "max_tokens": 12, "temperature": 0})
        assert r["timings"]["images_n"] == 1, r
        return r["choices"][0]["message"]["content"]
    def vision(self):
        met = subprocess.run(["curl", "-s", self.url + "/metrics"], capture_output=True, text=True).stdout
        get = lambda name: int(next(l.split()[1] for l in met.splitlines() if l.startswith(name + " ")))
        return get("seer_vision_batches_total"), get("seer_vision_batch_images_total"), get("seer_image_encodes_total")
    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=20)

def png(w, h, seed):
    """A small PNG of coloured bands."""
    return png_data_url(w, h, lambda x, y: bytes(((x * (seed + 3) + y * seed * 7) % 256, (x + y * 5 + seed * 40) % 256,
                                                  (y * (seed + 1) * 3) % 256)))

# four sizes and patterns whose replies differ (a mix-up shows)
images = [png(56, 56, 5), png(84, 56, 1), png(112, 84, 3), png(112, 112, 2)]
questions = ["what is this", "describe the colours", "how many bands", "what shape"]
ref = Server(1)
alone = [ref.ask(i) for i in range(4)]
calls, imgs, encodes = ref.vision()
ref.stop()
assert len(set(alone)) == 4, f"the images do not give four different replies: {alone}"
assert calls == imgs == encodes == 4, f"alone: {calls} passes, {imgs} images, {encodes} encodes"
blocker = {"messages": [{"role": "user", "content": " ".join(f"word{k}" for k in range(900))}], "max_tokens": 1,
           "temperature": 0}
for attempt in range(3):
    srv = Server(5)
    together = [None] * 4
    def run(i):
        together[i] = srv.ask(i)
    b = threading.Thread(target=srv.post, args=(blocker,))
    b.start()
    time.sleep(0.05)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads + [b]:
        t.join()
    calls, imgs, encodes = srv.vision()
    srv.stop()
    for i in range(4):
        assert together[i] == alone[i], f"image {i}: reply with others {together[i]!r}, alone {alone[i]!r}"
    assert imgs == encodes == 4, f"round {attempt + 1}: {imgs} images in passes, {encodes} encodes"
    if imgs > calls:
        print(f"seer serve vision batching: 4 image chats alone and together give the same replies; "
              f"together {calls} vision passes for {imgs} images (round {attempt + 1})")
        sys.exit(0)
sys.exit("FAIL: no vision pass carried more than one image in 3 rounds")
PY
