#!/usr/bin/env bash
# seer serve's raw protocol with curl on the bundled demo model: /health,
# /v1/models, a chat reply whole and streamed (SSE chunks, [DONE], usage and
# timings, an image as a data: URL), a follow-up that repeats the history
# and prefills only its new turn (timings.cache_n), the API key, /metrics;
# then each bad input gets its status and an OpenAI-style error while the
# server keeps serving: malformed JSON, an unknown model, an undecodable
# image, a local path without --allow-local-files, a body over --max-body,
# an unknown endpoint, a wrong method, a request without messages. Last, a
# thinking model (make_think_model) puts its thought in reasoning_content.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
# shellcheck source=tests/e2e/serve_lib.bash
. tests/e2e/serve_lib.bash
fail=0
bad() { echo "FAIL: $*"; fail=1; }
trap 'for p in ${chat_pid:-} ${think_pid:-}; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
M=assets/models
# Start-up problems: one line, exit 1 (files) or 2 (usage).
"$SEER" serve -m "$tmp/missing.gguf" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^seer serve: .*missing.gguf' "$tmp/err" || bad "missing model: rc $rc, $(cat "$tmp/err")"
"$SEER" serve -m $M/demo-llm.gguf --port 70000 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'invalid --port 70000' "$tmp/err" || bad "bad port: rc $rc, $(cat "$tmp/err")"
"$SEER" serve -m $M/demo-llm.gguf --vision-precision fp8 >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q -- '--vision-precision takes exact or bf16, not fp8' "$tmp/err" ||
  bad "bad --vision-precision: rc $rc, $(cat "$tmp/err")"
serve_start chat -m $M/demo-llm.gguf --mmproj $M/demo-mmproj.gguf -t 1 --parallel 2 --api-key sekrit --max-body 1 \
  || exit 1
grep -q '^seer serve: listening on http://127.0.0.1:' "$tmp/chat.out" || bad "no listening line: $(cat "$tmp/chat.out")"
auth=(-H "Authorization: Bearer sekrit")
jq_py() { python3 -c "import json,sys; d=json.load(open('$tmp/body')); print($1)"; }

r=$(status_of GET "$chat_url/health")
[ "$r" = '200 {"status":"ok"}' ] || bad "/health: $r"
r=$(status_of GET "$chat_url/v1/models" "${auth[@]}")
[[ $r == 200* && $r == *'"id":"demo-llm"'* ]] || bad "/v1/models: $r"
r=$(status_of GET "$chat_url/v1/models")
[[ $r == "401 "*'"error"'* ]] || bad "no API key: $r"

# A whole reply.
r=$(status_of POST "$chat_url/v1/chat/completions" "${auth[@]}" \
  -d '{"messages":[{"role":"user","content":"Is there a circle?"}],"max_tokens":16,"temperature":0}')
[[ $r == 200* ]] || bad "chat: $r"
[ "$(jq_py "d['object'], d['choices'][0]['message']['role'], d['usage']['completion_tokens'] > 0, d['choices'][0]['finish_reason'] in ('stop', 'length'), len(d['choices'][0]['message']['content']) > 0")" = "chat.completion assistant True True True" ] ||
  bad "chat reply: $r"

# Streamed, with the demo picture as a data: URL.
img=$(base64 -w0 assets/images/demo.png)
question='{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,'$img'"}},{"type":"text","text":"What shapes are in the image?"}]}'
printf '{"stream":true,"stream_options":{"include_usage":true},"max_tokens":24,"temperature":0,"messages":[%s]}' \
  "$question" >"$tmp/stream.json"
curl -sN "${auth[@]}" "$chat_url/v1/chat/completions" -d @"$tmp/stream.json" >"$tmp/stream.out" || bad "stream: curl failed"
python3 - "$tmp/stream.out" >"$tmp/stream.txt" <<'PY' || bad "stream: $(cat "$tmp/stream.txt") $(head -c 600 "$tmp/stream.out")"
import json, sys
events = open(sys.argv[1]).read().split("\n\n")
assert events[-1] == "" and events[-2] == "data: [DONE]", "no data: [DONE] at the end"
chunks = [json.loads(e[len("data: "):]) for e in events[:-2]]
assert all(e.startswith("data: ") for e in events[:-2])
text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
finish = [c for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
assert len(finish) == 1 and finish[0]["timings"]["images_n"] == 1 and finish[0]["timings"]["image_encode_ms"] > 0
assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["prompt_tokens"] > 60, "usage chunk"
assert text, "no text streamed"
print(text)
PY
answer=$(cat "$tmp/stream.txt")

# The follow-up repeats the history: only the new turn is prefilled.
printf '{"max_tokens":8,"temperature":0,"messages":[%s,{"role":"assistant","content":%s},{"role":"user","content":"Is there a circle?"}]}' \
  "$question" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$answer")" >"$tmp/follow.json"
r=$(status_of POST "$chat_url/v1/chat/completions" "${auth[@]}" -d @"$tmp/follow.json")
[[ $r == 200* ]] || bad "follow-up: $r"
reuse=$(jq_py "d['timings']['cache_n'] > 60 and d['timings']['prompt_n'] < 30 and d['timings']['images_n'] == 0")
[ "$reuse" = True ] || bad "the follow-up was prefilled again: $(jq_py "d['timings']")"

# A stop string cuts the answer before it, whole and streamed (held back
# while the end of the text could still become the stop string).
for stream in false true; do
  printf '{"stream":%s,"max_tokens":24,"temperature":0,"stop":[", a p"],"messages":[%s]}' "$stream" "$question" >"$tmp/stop.json"
  curl -sN "${auth[@]}" "$chat_url/v1/chat/completions" -d @"$tmp/stop.json" >"$tmp/stop.out"
  python3 - "$tmp/stop.out" "$answer" >"$tmp/stop.txt" <<'PY' || bad "stop string (stream $stream): $(cat "$tmp/stop.txt")"
import json, sys
raw, answer = open(sys.argv[1]).read(), sys.argv[2]
if raw.startswith("data: "):
    chunks = [json.loads(l[6:]) for l in raw.split("\n\n") if l.startswith("data: {")]
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
    finish = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"] and c["choices"][0]["finish_reason"]]
else:
    d = json.loads(raw)
    text, finish = d["choices"][0]["message"]["content"], [d["choices"][0]["finish_reason"]]
want = answer[:answer.index(", a p")] if ", a p" in answer else None
print(repr(text), finish, "want", repr(want))
assert want and text == want and finish == ["stop"]
PY
done

# Bad input: status, OpenAI-style error, server still up.
expect() { # STATUS WHAT CURL-ARGS...
  local want=$1 what=$2 r; shift 2
  r=$(status_of POST "$chat_url/v1/chat/completions" "${auth[@]}" "$@")
  [[ $r == "$want "*'{"error":{"message":'* ]] || bad "$what: want $want, got $r"
}
expect 400 "malformed JSON" -d '{"messages": [}'
expect 404 "unknown model" -d '{"model":"gpt-9","messages":[{"role":"user","content":"hi"}]}'
expect 400 "undecodable image" -d '{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgoAAAA="}}]}]}'
expect 400 "bad base64" -d '{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,@@@"}}]}]}'
expect 403 "local file" -d '{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"/etc/hostname"}}]}]}'
expect 400 "no messages" -d '{"messages":[]}'
expect 400 "last message not the user's" -d '{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}'
# a message that cannot fit the slot's context even alone: the sizes, and no
# advice to clear a history that is not what is in the way
printf '{"messages":[{"role":"user","content":"%s"}]}' "$(head -c 600000 /dev/zero | tr '\0' a)" >"$tmp/long.json"
r=$(status_of POST "$chat_url/v1/chat/completions" "${auth[@]}" --data-binary @"$tmp/long.json")
[[ $r == "400 "*'the message'*' need'*' tokens but the context holds '* && $r != *clear* ]] ||
  bad "message longer than the context: ${r:0:300}"
head -c 1200000 /dev/zero | tr '\0' a >"$tmp/big"
expect 413 "body over --max-body 1" --data-binary @"$tmp/big"
r=$(status_of POST "$chat_url/v1/nothing" "${auth[@]}" -d '{}')
[[ $r == "404 "*'"error"'* ]] || bad "unknown endpoint: $r"
r=$(status_of GET "$chat_url/v1/chat/completions" "${auth[@]}")
[[ $r == "405 "*'"error"'* ]] || bad "GET on chat: $r"
r=$(status_of GET "$chat_url/health")
[ "$r" = '200 {"status":"ok"}' ] || bad "/health after the bad requests: $r"

curl -s "$chat_url/metrics" >"$tmp/metrics"
grep -q '^seer_requests_total{endpoint="chat",status="2xx"} 5$' "$tmp/metrics" || bad "metrics: chat 2xx $(grep chat "$tmp/metrics")"
grep -q '^seer_requests_total{endpoint="chat",status="4xx"} 10$' "$tmp/metrics" || bad "metrics: chat 4xx $(grep 'chat",status="4' "$tmp/metrics")"
# one: the follow-up repeats the image, and the two stop-string requests go
# to the slot holding it (the longest common prefix), which keeps its encoding
grep -q '^seer_image_encodes_total 1$' "$tmp/metrics" || bad "metrics: image encodes $(grep image_encodes "$tmp/metrics")"
grep -q '^seer_request_duration_seconds_count{endpoint="chat"} 15$' "$tmp/metrics" || bad "metrics: latency count"
serve_stop "$chat_pid" || bad "SIGTERM: exit status $?"
chat_pid=
grep -q 'seer serve: stopped' "$tmp/chat.err" || bad "no clean stop: $(cat "$tmp/chat.err")"
# A thinking model: the thought apart, its markers and the blank after it dropped.
"$TOOLS/make_think_model" --out "$tmp/think.gguf" >/dev/null || bad "make_think_model"
# Started with OpenBLAS made to run narrower kernels than the CPU's (x86-64
# with AVX2: Prescott's are 128-bit): one warning line on stderr says so.
prescott=""
[ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo && prescott=Prescott
if [ -z "$prescott" ]; then
  serve_start think -m "$tmp/think.gguf" -t 1 || exit 1
else
  OPENBLAS_CORETYPE=$prescott serve_start think -m "$tmp/think.gguf" -t 1 || exit 1
  [ "$(grep -c 'warning: OpenBLAS' "$tmp/think.err")" = 1 ] &&
    grep -q '^seer serve: warning: OpenBLAS runs its Prescott kernels (128-bit) on a CPU with' "$tmp/think.err" ||
    bad "no one-line warning for OpenBLAS's Prescott kernels: $(cat "$tmp/think.err")"
fi
r=$(status_of POST "$think_url/v1/chat/completions" -d '{"messages":[{"role":"user","content":"Hi"}]}')
[ "$(jq_py "repr((d['choices'][0]['message']['reasoning_content'], d['choices'][0]['message']['content']))")" = \
  "('The user greets me. I should answer briefly.', 'Hello there!')" ] || bad "thinking model: $r"
curl -sN "$think_url/v1/chat/completions" -d '{"stream":true,"messages":[{"role":"user","content":"Hi"}]}' |
  python3 -c '
import json, sys
chunks = [json.loads(l[6:]) for l in sys.stdin.read().split("\n\n") if l.startswith("data: {")]
deltas = [c["choices"][0]["delta"] for c in chunks if c["choices"]]
print(repr(("".join(d.get("reasoning_content", "") for d in deltas), "".join(d.get("content", "") for d in deltas))))' >"$tmp/think.txt"
[ "$(cat "$tmp/think.txt")" = "('The user greets me. I should answer briefly.', 'Hello there!')" ] || bad "thinking model streamed: $(cat "$tmp/think.txt")"
serve_stop "$think_pid" || bad "thinking server: exit status $?"
think_pid=
[ $fail = 0 ] && echo "seer serve: health, models, chat whole and streamed with an image, prefix reuse, stop strings, 11 bad requests, metrics, reasoning_content"
exit $fail
