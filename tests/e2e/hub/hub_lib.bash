# Helpers of the -hf tests: a local hub (server.py) serving repositories made
# from the bundled demo model. Needs $T (a private temporary folder).
HUB_ROOT="$T/hub"
HUB_LOG="$T/hub-requests.log"
HUB_PID=""
unset LLAMA_CACHE HF_HUB_CACHE HUGGINGFACE_HUB_CACHE HF_HOME HF_ENDPOINT HF_TOKEN
HUB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ASSETS="$HUB_DIR/../../../assets"

# test/tiny: the demo LLM under three quant names and its projector under
# three (each copy made distinct by a few bytes after the GGUF data, which
# readers ignore), and a README; test/split: a model in two parts.
make_repos() {
  local r="$HUB_ROOT/test/tiny" q
  mkdir -p "$r" "$HUB_ROOT/test/split"
  for q in Q4_K_M Q8_0 F16; do
    cp "$ASSETS/models/demo-llm.gguf" "$r/tiny-$q.gguf"; printf '%s' "$q" >> "$r/tiny-$q.gguf"
  done
  for q in Q8_0 F16 F32; do
    cp "$ASSETS/models/demo-mmproj.gguf" "$r/mmproj-tiny-$q.gguf"; printf '%s' "$q" >> "$r/mmproj-tiny-$q.gguf"
  done
  echo "# tiny" > "$r/README.md"
  head -c 700000 "$ASSETS/models/demo-llm.gguf" > "$HUB_ROOT/test/split/big-Q8_0-00001-of-00002.gguf"
  tail -c +700001 "$ASSETS/models/demo-llm.gguf" > "$HUB_ROOT/test/split/big-Q8_0-00002-of-00002.gguf"
}

# start_hub [server.py fault options…]: a fresh server; MODEL_ENDPOINT points at it.
start_hub() {
  stop_hub
  rm -f "$T/hub-port"
  python3 "$HUB_DIR/server.py" --root "$HUB_ROOT" --log "$HUB_LOG" --port-file "$T/hub-port" --lifetime 300 "$@" &
  HUB_PID=$!
  local i
  for ((i = 0; i < 100; i++)); do [ -s "$T/hub-port" ] && break; sleep 0.05; done
  [ -s "$T/hub-port" ] || { echo "FAIL: the hub did not start"; exit 1; }
  export MODEL_ENDPOINT="http://127.0.0.1:$(cat "$T/hub-port")/"
}

stop_hub() {
  if [ -n "$HUB_PID" ]; then kill "$HUB_PID" 2>/dev/null; wait "$HUB_PID" 2>/dev/null; fi
  HUB_PID=""
}

# downloads NAME: how many GETs of the file NAME the hub has served so far.
downloads() { grep -cE "^GET /[^ ]*/resolve/[0-9a-f]+/$1 " "$HUB_LOG" 2>/dev/null || true; }

# The commit the hub serves test/tiny at (from its refs answer).
hub_commit() {
  python3 -c 'import json, sys, urllib.request
print(json.load(urllib.request.urlopen(sys.argv[1]))["branches"][0]["targetCommit"])' "${MODEL_ENDPOINT}api/models/$1/refs"
}
