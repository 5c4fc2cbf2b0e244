#!/usr/bin/env bash
# seer serve against a real client: the official openai npm package
# (installed at test time into the git-ignored .cache/serve-npm) drives a
# streamed chat with an image, the same chat whole (greedy: the same text),
# /v1/models and an unknown model (404) on the demo model, and embeddings on
# the bundled search model, which must be the vectors `seer embed` writes
# (texts, an image, a Matryoshka cut).
set -u
SEER=${SEER:?SEER must point at the seer binary}
cd "$(dirname "$0")/../.."
command -v npm >/dev/null && command -v node >/dev/null || { echo "SKIP: node and npm are not installed"; exit 0; }
tmp=$(mktemp -d)
# shellcheck source=tests/e2e/serve_lib.bash
. tests/e2e/serve_lib.bash
fail=0
bad() { echo "FAIL: $*"; fail=1; }
trap 'for p in ${chat_pid:-} ${emb_pid:-}; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
OPENAI_VERSION=4.104.0
npm_dir=.cache/serve-npm
if [ "$(cat "$npm_dir/node_modules/openai/package.json" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])' 2>/dev/null)" != $OPENAI_VERSION ]; then
  mkdir -p "$npm_dir" && (cd "$npm_dir" && npm install --no-audit --no-fund --silent "openai@$OPENAI_VERSION" >/dev/null 2>&1) ||
    { echo "FAIL: npm install openai@$OPENAI_VERSION"; exit 1; }
fi
cp tests/e2e/serve_openai.mjs "$npm_dir/run.mjs"
M=assets/models
serve_start chat -m $M/demo-llm.gguf --mmproj $M/demo-mmproj.gguf -t 1 --api-key sekrit || exit 1
serve_start emb -m $M/search-llm.gguf --mmproj $M/search-mmproj.gguf --embeddings -t 1 || exit 1
node "$npm_dir/run.mjs" "$chat_url" "$emb_url" assets/images/demo.png >"$tmp/sdk.json" 2>"$tmp/sdk.err" ||
  { echo "FAIL: the openai client: $(tail -5 "$tmp/sdk.err")"; exit 1; }
"$SEER" embed -m $M/search-llm.gguf -t 1 -p "a red circle" -p "a blue square" >"$tmp/texts.json" || bad "seer embed texts"
"$SEER" embed -m $M/search-llm.gguf --mmproj $M/search-mmproj.gguf -t 1 --image assets/images/demo.png >"$tmp/image.json" ||
  bad "seer embed image"
"$SEER" embed -m $M/search-llm.gguf -t 1 --dim 16 -p "a red circle" >"$tmp/cut.json" || bad "seer embed --dim"
python3 - "$tmp" <<'PY' || fail=1
import json, sys
t = sys.argv[1]
sdk = json.load(open(f"{t}/sdk.json"))
vec = lambda name: [d["embedding"] for d in json.load(open(f"{t}/{name}.json"))["data"]]
def check(ok, what):
    if not ok:
        print("FAIL:", what)
        sys.exit(1)
check(sdk["streamed"] and sdk["chunks"] >= 3, f"streamed text: {sdk['streamed']!r} in {sdk['chunks']} chunks")
check(sdk["streamed"] == sdk["whole"], f"greedy stream {sdk['streamed']!r} != whole {sdk['whole']!r}")
check(sdk["stream_usage"]["prompt_tokens"] == sdk["usage"]["prompt_tokens"] > 60, f"usage {sdk['stream_usage']} / {sdk['usage']}")
check(sdk["models"] == ["demo-llm"] and sdk["unknown_model"] == 404, f"models {sdk['models']}, unknown model {sdk['unknown_model']}")
def close(a, b, what):
    check(len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b)) < 1e-5, f"{what}: the server's vector differs from seer embed's")
for k, (a, b) in enumerate(zip(sdk["text_vectors"], vec("texts"))): close(a, b, f"text {k}")
close(sdk["image_vector"], vec("image")[0], "image")
close(sdk["cut_vector"], vec("cut")[0], "dimensions 16")
check(len(sdk["cut_vector"]) == 16, "dimensions 16")
print(f"openai SDK: streamed {sdk['streamed']!r}, 4 embeddings equal seer embed's")
PY
# An input the context cannot hold is refused with the sizes before it is
# tokenized (its bytes alone are more tokens than the context holds).
printf '{"input":"%s"}' "$(head -c 600000 /dev/zero | tr '\0' a)" >"$tmp/long.json"
r=$(status_of POST "$emb_url/v1/embeddings" --data-binary @"$tmp/long.json")
[[ $r == "400 "*'the text needs more than 4096 tokens but the context holds 4096'* ]] || bad "too long an input: ${r:0:300}"
serve_stop "$chat_pid" || bad "chat server exit status $?"
serve_stop "$emb_pid" || bad "embeddings server exit status $?"
chat_pid= emb_pid=
exit $fail
