#!/usr/bin/env bash
# seer serve keeps the part of a slot's KV cache a new conversation begins
# with, through curl: an edited earlier message, a regenerated reply (the
# same history again), a conversation forked from an earlier point (it goes
# to the slot holding that conversation, not the least recently used one),
# two clients with the same system prompt, an image kept (same pixels) and
# an image changed (same place, other pixels: the cache ends before it).
# Each greedy reply must be what a fresh server replies to the same request,
# and timings.cache_n the common prefix, counted here from the rendered
# ChatML and `seer tokenize`. Then the recurrent models (LFM2's short
# convolutions, Qwen3.5's Gated DeltaNet): the cache goes back only to a
# mark (where a turn's prefill began), or to nothing.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LFM2=tests/conformance/cases/lfm2vl-f32/model.gguf
[ -f "$LFM2" ] || LFM2=""
QWEN35=tests/conformance/cases/text-qwen35-f32/model.gguf
[ -f "$QWEN35" ] || QWEN35=""
SEER="$SEER" TMP="$tmp" LFM2="$LFM2" QWEN35="$QWEN35" python3 - <<'PY'
import base64, json, os, re, subprocess, sys
SEER, TMP = os.environ["SEER"], os.environ["TMP"]
M, MM = "assets/models/demo-llm.gguf", "assets/models/demo-mmproj.gguf"
fails = []

class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([SEER, "serve", *args, "-t", "1", "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        line = self.p.stdout.readline()
        m = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not m:
            sys.exit(f"FAIL: seer serve {args} did not start: {line!r}")
        self.url = m.group(1)
    def chat(self, msgs, max_tokens=12):
        body = json.dumps({"messages": msgs, "max_tokens": max_tokens, "temperature": 0})
        out = subprocess.run(["curl", "-s", "-H", "Content-Type: application/json", "--data-binary", "@-",
                              self.url + "/v1/chat/completions"], input=body, capture_output=True, text=True,
                             timeout=300).stdout
        r = json.loads(out)
        if "choices" not in r:
            sys.exit(f"FAIL: {r}")
        return r["choices"][0]["message"]["content"], r["timings"], r["usage"]
    def metrics(self):
        return subprocess.run(["curl", "-s", self.url + "/metrics"], capture_output=True, text=True).stdout
    def stop(self):
        self.p.terminate()
        self.p.wait(timeout=20)

def fresh(args, msgs, max_tokens=12):
    s = Server(*args)
    try:
        return s.chat(msgs, max_tokens)
    finally:
        s.stop()

def tokens(model, text, special=True):
    out = subprocess.run([SEER, "tokenize", "-m", model, "-p", text] + ([] if special else ["--no-special"]),
                         capture_output=True, text=True, check=True)
    return [int(t) for t in out.stdout.split()]

def lcp(a, b):
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n

def text_of(m):
    c = m["content"]
    return c if isinstance(c, str) else "".join(p.get("text", "") for p in c)

def chatml(msgs):
    """The demo model's template, up to each image marker: text pieces."""
    out = ""
    for m in msgs:
        marks = 0 if isinstance(m["content"], str) else sum(p["type"] == "image_url" for p in m["content"])
        out += f"<|im_start|>{m['role']}\n" + "\x00" * marks + text_of(m) + "<|im_end|>\n"
    return (out + "<|im_start|>assistant\n").split("\x00")

def url(path):
    return "data:image/png;base64," + base64.b64encode(open(path, "rb").read()).decode()

def check(name, srv, args, msgs, expect_cache, expect_encoded=None):
    got, timings, _ = srv.chat(msgs)
    if expect_encoded is not None and timings["images_n"] != expect_encoded:
        fails.append(f"{name}: {timings['images_n']} images encoded, expected {expect_encoded}")
    want, _, _ = fresh(args, msgs)
    if got != want:
        fails.append(f"{name}: reply {got!r}, a fresh server's {want!r}")
    if timings["cache_n"] != expect_cache:
        fails.append(f"{name}: cache_n {timings['cache_n']}, expected {expect_cache}")
    print(f"{name}: cache_n {timings['cache_n']}, prompt_n {timings['prompt_n']}")

def common_text_rows(old, new):
    """Rows the cache of text-only conversation old shares with new."""
    a, b = tokens(M, chatml(old)[0]), tokens(M, chatml(new)[0])
    return min(lcp(a, b), len(b) - 1)

args = ["-m", M, "--mmproj", MM, "--parallel", "2"]
srv = Server(*args)
sys_a = {"role": "system", "content": "You describe shapes."}
A = [sys_a, {"role": "user", "content": "the red circle is large"},
     {"role": "assistant", "content": "yes it is round"}, {"role": "user", "content": "and the square?"}]
srv.chat(A)
# An edited earlier message: the cache is kept up to the edit.
A2 = A[:1] + [{"role": "user", "content": "the red square is large"}] + A[2:]
check("edited message", srv, args, A2, common_text_rows(A, A2))
# The same conversation again, its reply regenerated: all but its last row.
check("regenerated reply", srv, args, A2, len(tokens(M, chatml(A2)[0])) - 1)
# Another conversation (sharing only the template's header with the first:
# under a tenth of it) takes the other slot; a fork of it goes back to it
# (the least recently used slot is the first one).
B = [{"role": "system", "content": "Count the sides, corners and faces of the solids you are asked about."},
     {"role": "user", "content": "how many sides has a cube, and how many corners?"},
     {"role": "assistant", "content": "six sides, eight corners"}, {"role": "user", "content": "and a triangle"}]
srv.chat(B)
B2 = B[:3] + [{"role": "user", "content": "and a tetrahedron"}]
check("forked conversation", srv, args, B2, common_text_rows(B, B2))
# Two clients with the same system prompt: the second keeps the first's.
C = [sys_a, {"role": "user", "content": "what colour is the sky"}]
check("same system prompt", srv, args, C, common_text_rows(A2, C))
# Images: kept whole when the pixels are the same (and not encoded again:
# timings.images_n counts the images encoded), never when they are not.
img1, img2 = url("assets/images/two-shapes.png"), url("assets/images/four-shapes.png")
def with_image(u, question):
    return [sys_a, {"role": "user", "content": [{"type": "image_url", "image_url": {"url": u}},
                                                {"type": "text", "text": "what is this"}]},
            {"role": "assistant", "content": "shapes"}, {"role": "user", "content": question}]
D = with_image(img1, "which is red")
srv.chat(D)
D2 = with_image(img1, "which is blue")
_, fresh_t, _ = fresh(args, D2)
after_old, after_new = tokens(M, chatml(D)[1]), tokens(M, chatml(D2)[1])
check("image kept", srv, args, D2, fresh_t["prompt_n"] - len(after_new) + lcp(after_old, after_new), 0)
D3 = with_image(img2, "which is blue")
check("image changed", srv, args, D3, len(tokens(M, chatml(D3)[0])), 1)
srv.stop()

# Recurrent models (LFM2's short convolutions, Qwen3.5's Gated DeltaNet):
# the state is kept only where it was marked.
for name, model in (("LFM2", os.environ["LFM2"]), ("Qwen3.5", os.environ["QWEN35"])):
    if not model:
        print(f"SKIP: {name}: its conformance case is not here")
        continue
    largs = ["-m", model, "--parallel", "1"]
    srv = Server(*largs)
    # A first turn whose one-token reply reads back as that token (not a
    # partial UTF-8 sequence), so that the cache matches past it when the
    # history is tokenized again
    for first in ("hi", "hello", "hey", "ok", "yes", "good day", "thanks", "so"):
        E = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": first}]
        reply, _, usage = srv.chat(E, 1)
        if "\ufffd" not in reply and len(tokens(model, reply, special=False)) == 1:
            break
    else:
        sys.exit(f"FAIL: {name}: no first turn with a reply that tokenizes back to itself")
    # the follow-up repeats the history: its turn's prefill marks the state
    E2 = E + [{"role": "assistant", "content": reply}, {"role": "user", "content": "tell me about the sea"}]
    srv.chat(E2)
    E3 = E2[:3] + [{"role": "user", "content": "tell me about the sky"}]
    check(f"{name}: back to the turn's mark", srv, largs, E3, usage["prompt_tokens"] + 1)
    # sent whole, a conversation's only mark is its start: edited, it starts over
    F = E3[:1] + [{"role": "user", "content": "good morning"}] + E3[2:]
    srv.chat(F)
    F2 = F[:3] + [{"role": "user", "content": "tell me about the moon"}]
    check(f"{name}: no mark, from scratch", srv, largs, F2, 0)
    srv.stop()

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
