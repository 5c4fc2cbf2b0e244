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
# times, in case the four did not queue in time. Before that,
# --vision-precision bf16 reaches every image the server encodes: where the
# CPU has BF16 dot products a bf16 server's chat reply on a larger picture
# differs from the exact one and its /v1/embeddings image vector (bundled search model) is
# `seer embed --vision-precision bf16`'s, near the exact one but not it;
# elsewhere it says so in one line and everything is exact.
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
    def __init__(self, parallel, extra=(), model=TMP + "/m.gguf", mmproj=TMP + "/tiny-qwen25vl-mmproj.gguf"):
        self.err = open(TMP + "/serve.err", "w+")
        self.p = subprocess.Popen([SEER, "serve", "-m", model, "--mmproj", mmproj, "-t", "1", "--parallel",
                                   str(parallel), "--port", "0", *extra], stdout=subprocess.PIPE, stderr=self.err,
                                  text=True)
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
    def embed_image(self, url):
        out = subprocess.run(["curl", "-s", "-H", "Content-Type: application/json", "--data-binary", "@-",
                              self.url + "/v1/embeddings"], input=json.dumps({"input": [{"image": url}]}),
                             capture_output=True, text=True, timeout=300).stdout
        return json.loads(out)["data"][0]["embedding"]
    def stderr(self):
        self.err.seek(0)
        return self.err.read()
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
import base64
def file_url(path):
    return "data:image/png;base64," + base64.b64encode(open(path, "rb").read()).decode()
# a larger picture, whose greedy reply the encoder's BF16 rounding changes (the four small ones' do not move)
receipt = file_url("tests/data/ocr-receipt.png")
def ask_receipt(srv):
    r = srv.post({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": receipt}},
                                                             {"type": "text", "text": "what is this"}]}],
                  "max_tokens": 12, "temperature": 0})
    return r["choices"][0]["message"]["content"]
receipt_exact = ask_receipt(ref)
ref.stop()
assert len(set(alone)) == 4, f"the images do not give four different replies: {alone}"
assert calls == imgs == encodes == 4, f"alone: {calls} passes, {imgs} images, {encodes} encodes"

# --vision-precision bf16 on the chats and on the embeddings
NOTICE = "no BF16 dot products here"
srv = Server(1, ["--vision-precision", "bf16"])
receipt_bf16 = ask_receipt(srv)
srv.stop()
exact_cpu = NOTICE in srv.stderr()
if exact_cpu:
    assert receipt_bf16 == receipt_exact, f"bf16 without BF16 dot products: {receipt_bf16!r}, exact {receipt_exact!r}"
else:
    assert receipt_bf16 != receipt_exact, f"--vision-precision bf16 gave the exact reply {receipt_exact!r}: no effect"
M = "assets/models"
demo = "assets/images/demo.png"
def seer_embed(*extra):
    out = subprocess.run([SEER, "embed", "-m", M + "/search-llm.gguf", "--mmproj", M + "/search-mmproj.gguf", "-t", "1",
                          "--image", demo, *extra], capture_output=True, text=True, check=True).stdout
    return json.loads(out)["data"][0]["embedding"]
srv = Server(1, ["--embeddings", "--vision-precision", "bf16"], M + "/search-llm.gguf", M + "/search-mmproj.gguf")
served = srv.embed_image(file_url(demo))
srv.stop()
assert (NOTICE in srv.stderr()) == exact_cpu, srv.stderr()
exact, local = seer_embed(), seer_embed("--vision-precision", "bf16")
dist = lambda a, b: sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5
assert len(served) == len(local) and dist(served, local) < 1e-5, f"served bf16 vector is {dist(served, local):.3g} from seer embed's"
rel = dist(served, exact) / sum(y * y for y in exact) ** 0.5
assert (rel < 1e-6) if exact_cpu else (5e-5 <= rel <= 0.05), f"bf16 vector rel_l2 {rel:.3g} from the exact one"
print(f"--vision-precision bf16: chat reply {receipt_bf16!r} (exact {receipt_exact!r}), "
      f"embedding rel_l2 {rel:.3g} from exact{' (no BF16 dot products: exact)' if exact_cpu else ''}")
# about 1880 tokens: its prefill must fit the 2048-token slot to hold the
# worker (900 words, 5306 tokens, were refused at once and held nothing)
blocker = {"messages": [{"role": "user", "content": " ".join(f"word{k}" for k in range(320))}], "max_tokens": 1,
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
