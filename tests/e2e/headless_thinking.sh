#!/usr/bin/env bash
# Headless thinking on a real GGUF scripted by its weights (make_think_model:
# thought " The user greets me. I should answer briefly.", the control token
# </think>, answer "Hello there!"): the answer alone on stdout, the thought on
# stderr, --json marks every token, --think off answers at once.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
fail=0
err() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOOLS/make_think_model" --out "$tmp/think.gguf" || { echo "FAIL: make_think_model"; exit 1; }

out=$("$SEER" -m "$tmp/think.gguf" -p "Hi" 2>"$tmp/err" </dev/null) || err "plain run failed: $(cat "$tmp/err")"
[ "$out" = "Hello there!" ] || err "stdout is [$out], want the answer alone"
grep -q "^ The user greets me. I should answer briefly.$" "$tmp/err" || err "no thought on stderr: $(cat "$tmp/err")"
grep -q "think>" "$tmp/err" && err "a marker reached stderr: $(cat "$tmp/err")"
grep -q "thinking 9 tokens in [0-9]* ms, answer 4 in" "$tmp/err" || err "no thinking timing: $(tail -1 "$tmp/err")"

# --json: thought true up to and with </think>, then false; the done event counts them
"$SEER" -m "$tmp/think.gguf" -p "Hi" --json </dev/null >"$tmp/json" 2>/dev/null || err "json run failed"
python3 - "$tmp/json" <<'PY' || err "json tokens not marked as expected"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
toks = [e for e in ev if e["event"] == "token"]
flags = [t["thought"] for t in toks]
assert flags == [True] * 9 + [False] * 4, flags
assert toks[8]["text"] == "</think>", toks[8]
assert "".join(t["text"] for t in toks if not t["thought"]) == "\n\nHello there!"
done = ev[-1]
assert done["event"] == "done" and done["thought_tokens"] == 9 and 0 <= done["thought_ms"] <= done["gen_ms"], done
PY

# thinking off: the prompt closes an empty thought, no thought at all
out=$("$SEER" -m "$tmp/think.gguf" -p "Hi" --think off 2>"$tmp/err" </dev/null) || err "--think off failed"
[ "$out" = "Hello there!" ] || err "--think off stdout [$out]"
grep -q "greets" "$tmp/err" && err "--think off still thought: $(cat "$tmp/err")"
grep -q "thinking 0 tokens" "$tmp/err" || err "--think off timing: $(tail -1 "$tmp/err")"
"$SEER" -m "$tmp/think.gguf" -p "Hi" --think perhaps >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^seer: --think takes on or off" "$tmp/err" || err "bad --think value: rc $rc, $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "headless thinking: ok"
exit $fail
