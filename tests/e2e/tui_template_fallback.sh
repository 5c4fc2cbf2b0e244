#!/usr/bin/env bash
# A model whose chat template seer does not know: the TUI says once, in the
# transcript, which template it uses instead; a known template says nothing.
. "$(dirname "$0")/tui_lib.bash"
make_model
# The same file with its template text rewritten in place (same length):
# no <|im_start|> marker left in it, so no known template matches.
"$PY" - "$T/llm.gguf" "$T/odd.gguf" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
start = data.index(b"{% for message in messages %}")
end = data.index(b"{% endif %}", start) + len(b"{% endif %}")
template = data[start:end]
odd = template.replace(b"<|im_start|>", b"<|xx_start|>").replace(b"<|im_end|>", b"<|xx_end|>")
assert len(odd) == len(template) and odd != template
open(sys.argv[2], "wb").write(data[:start] + odd + data[end:])
PY

start 110 30 -m "$T/odd.gguf" -n 2
wait_log '^loaded' 15
wait_screen "chat template is not one seer knows: using chatml"
[ "$(screen | grep -c 'chat template is not one seer knows')" = 1 ] || fail "the fallback is not said exactly once"
type_line "hello"
wait_log '^done' 30
[ "$(screen | grep -c 'chat template is not one seer knows')" = 1 ] || fail "the fallback note repeated after a turn"
stop_seer

start 110 30 -m "$T/llm.gguf" -n 2
wait_log '^loaded' 15
sleep 0.5
screen | grep -q 'chat template' && fail "a known template got a fallback note"
echo "the fallback template is named once; a known one is not"
