#!/usr/bin/env bash
# Images per second of seer serve's chat path at 1, 4 and 16 concurrent
# clients (chat requests with one image each, max_tokens 1, every image
# different so that nothing comes from a slot's cache), with the images of
# chats admitted together in shared vision passes, and the same binary
# encoding them one a pass (SEER_VISION_PASS_PATCHES=0). The model is
# `seer bench --synth serve-qwen25vl` (a ViT-B-sized Qwen2.5-VL tower, 12
# blocks 768 wide, before a small LLM: a request's time is mostly its
# encode), written once into .cache/serve-images. Beside the images/s, the
# encoder's own milliseconds an image (timings.image_encode_ms: a shared
# pass's time split among its images). Not part of make test.
#   tools/serve_images.sh [SEER] [THREADS] [IMAGE SIDE IN PIXELS] [exact|bf16]
set -u
cd "$(dirname "$0")/.."
SEER=${1:-./seer}
THREADS=${2:-2}
SIDE=${3:-224}
PRECISION=${4:-exact}   # the server's --vision-precision
dir=.cache/serve-images
[ -f $dir/serve-qwen25vl-mmproj.gguf ] || "$SEER" bench --synth serve-qwen25vl --out $dir >/dev/null || exit 1
SEER="$SEER" THREADS="$THREADS" SIDE="$SIDE" DIR="$dir" PRECISION="$PRECISION" python3 - <<'PY'
import json, os, re, subprocess, sys, threading, time
sys.path.insert(0, "tests/lib")
from png_url import seeded_png_data_url as png
SEER, THREADS, SIDE, DIR = os.environ["SEER"], os.environ["THREADS"], int(os.environ["SIDE"]), os.environ["DIR"]
PRECISION = os.environ["PRECISION"]

PLAN = [(1, 8), (4, 16), (16, 32)]      # clients, requests
images = [png(SIDE, k) for k in range(sum(n for _, n in PLAN) * 2)]
used = 0

def run(env, clients, n):
    global used
    p = subprocess.Popen([SEER, "serve", "-m", f"{DIR}/serve-qwen25vl-llm.gguf", "--mmproj",
                          f"{DIR}/serve-qwen25vl-mmproj.gguf", "-t", THREADS, "--parallel", "16", "-c", "1024",
                          "--vision-precision", PRECISION, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, **env))
    url = re.search(r"(http://\S+:\d+)", p.stdout.readline()).group(1)
    mine = images[used:used + n]
    used += n
    def ask(img):
        body = json.dumps({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": img}},
                                                                     {"type": "text", "text": "what is this"}]}],
                           "max_tokens": 1, "temperature": 0})
        out = subprocess.run(["curl", "-s", "--data-binary", "@-", url + "/v1/chat/completions"], input=body,
                             capture_output=True, text=True, timeout=600).stdout
        t = json.loads(out)["timings"]
        assert t["images_n"] == 1, out[:300]
        return t["image_encode_ms"]
    ask(png(SIDE, 9999))                 # the weights paged in
    encode_ms = []
    def client(k):
        for img in mine[k::clients]:
            encode_ms.append(ask(img))
    met0 = subprocess.run(["curl", "-s", url + "/metrics"], capture_output=True, text=True).stdout
    t0 = time.time()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dt = time.time() - t0
    met = subprocess.run(["curl", "-s", url + "/metrics"], capture_output=True, text=True).stdout
    p.terminate()
    p.wait()
    get = lambda m, name: int(next(l.split()[1] for l in m.splitlines() if l.startswith(name + " ")))
    calls = get(met, "seer_vision_batches_total") - get(met0, "seer_vision_batches_total")
    imgs = get(met, "seer_vision_batch_images_total") - get(met0, "seer_vision_batch_images_total")
    return n / dt, imgs / max(calls, 1), sum(encode_ms) / n

print(f"seer serve chat images/s, {SIDE}x{SIDE} images, --vision-precision {PRECISION}, {THREADS} threads, load average "
      f"{os.getloadavg()[0]:.1f} at the start")
print("| clients | one a pass: images/s | encoder ms an image | shared passes: images/s | encoder ms an image | "
      "images a pass | gain |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for clients, n in PLAN:
    one, _, one_ms = run({"SEER_VISION_PASS_PATCHES": "0"}, clients, n)
    shared, per_pass, shared_ms = run({}, clients, n)
    print(f"| {clients} | {one:.2f} | {one_ms:.0f} | {shared:.2f} | {shared_ms:.0f} | {per_pass:.1f} | "
          f"{shared / one:.2f}x |", flush=True)
print(f"load average {os.getloadavg()[0]:.1f} at the end")
PY
