#!/usr/bin/env bash
# seer ocr over the bundled scanned-looking pages (tests/data/ocr-receipt.png,
# ocr-note.png: ImageMagick text on paper-coloured noise, slightly rotated)
# with the PaddleOCR-VL conformance model (random weights: its text is not
# English, so the structure is what is checked). Each page's block must be
# exactly what a run on that page alone prints, under its own name, in the
# order given (a dropped, swapped or misattributed block fails); the two pages
# give different text; a folder is read in name order; -o writes the same
# text to a file (stdout empty); progress lines name each file with timings;
# a broken image fails alone (exit 1, the others still read); a model
# without a documented OCR prompt is refused in one line unless -p gives one;
# dots.ocr, HunyuanOCR and LightOnOCR read with their own prompts.
# --vision-precision bf16 changes the text where the CPU has BF16 dot products
# (else one line says so and the text is the exact one).
set -u
: "${SEER:?SEER must point at the seer binary}"
: "${TOOLS:?TOOLS must point at the built test tools}"
here="$(cd "$(dirname "$0")" && pwd)"
d="$here/../conformance/cases/paddleocr-f32"
q="$here/../conformance/cases/qwen3vl-f32"
data="$here/../data"
[ -f "$d/model.gguf" ] || { echo "SKIP: no paddleocr-f32 case"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
A="$data/ocr-receipt.png"
B="$data/ocr-note.png"
ocr() { "$SEER" ocr -m "$d/model.gguf" --mmproj "$d/mmproj.gguf" -n 16 -t 2 "$@"; }

ocr -q "$A" > "$tmp/a" 2>"$tmp/err" || fail "one page: $(cat "$tmp/err")"
ocr -q "$B" > "$tmp/b" 2>"$tmp/err" || fail "one page: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/a")" = "==> $A <==" ] || fail "header of A: $(head -n 1 "$tmp/a")"
[ "$(head -n 1 "$tmp/b")" = "==> $B <==" ] || fail "header of B: $(head -n 1 "$tmp/b")"
[ "$(wc -l < "$tmp/a")" -ge 3 ] || fail "A's block has no text line: $(cat "$tmp/a")"
cmp -s <(tail -n +2 "$tmp/a") <(tail -n +2 "$tmp/b") && fail "the two pages gave the same text: $(cat "$tmp/a")"

# several files: the per-file blocks, in the order given, and the progress lines
ocr "$A" "$B" > "$tmp/ab" 2>"$tmp/err" || fail "two pages: $(cat "$tmp/err")"
cmp -s "$tmp/ab" <(cat "$tmp/a" "$tmp/b") || fail "A B is not A's block then B's:
$(cat "$tmp/ab")"
grep -q "^seer ocr: \[1/2\] $A: 360x240, [0-9]* image tokens encoded in [0-9]* ms, prompt [0-9]* tokens in [0-9]* ms, 16 tokens in" "$tmp/err" ||
  fail "no progress line for A: $(cat "$tmp/err")"
grep -q "^seer ocr: \[2/2\] $B: 300x200, " "$tmp/err" || fail "no progress line for B: $(cat "$tmp/err")"
grep -q "^seer ocr: 2 images in .* s, all read" "$tmp/err" || fail "no summary: $(cat "$tmp/err")"
ocr -q "$B" "$A" > "$tmp/ba" 2>/dev/null || fail "B A failed"
cmp -s "$tmp/ba" <(cat "$tmp/b" "$tmp/a") || fail "B A is not B's block then A's"

# a folder: its images by name (ocr-note before ocr-receipt), the same blocks
mkdir "$tmp/pages"
cp "$A" "$B" "$tmp/pages/"
echo "not an image" > "$tmp/pages/notes.txt"
ocr -q "$tmp/pages" > "$tmp/dir" 2>"$tmp/err" || fail "folder: $(cat "$tmp/err")"
cmp -s "$tmp/dir" <(sed "1s#.*#==> $tmp/pages/ocr-note.png <==#" "$tmp/b"; sed "1s#.*#==> $tmp/pages/ocr-receipt.png <==#" "$tmp/a") ||
  fail "folder blocks: $(cat "$tmp/dir")"

# -o: the same text in the file, nothing on stdout
ocr -q -o "$tmp/out.txt" "$A" "$B" > "$tmp/stdout" 2>"$tmp/err" || fail "-o: $(cat "$tmp/err")"
[ ! -s "$tmp/stdout" ] || fail "-o still printed: $(cat "$tmp/stdout")"
cmp -s "$tmp/out.txt" "$tmp/ab" || fail "-o file differs from stdout"

# a broken image fails alone
head -c 300 "$A" > "$tmp/torn.png"
ocr -q "$A" "$tmp/torn.png" "$B" > "$tmp/torn" 2>"$tmp/err"
[ $? -eq 1 ] || fail "a broken image did not exit 1"
grep -q "^seer ocr: $tmp/torn.png: " "$tmp/err" || fail "the error does not name the file: $(cat "$tmp/err")"
cmp -s "$tmp/torn" "$tmp/ab" || fail "the good pages' blocks changed around a broken one"

# refusals in one line
if [ -f "$q/model.gguf" ]; then
  "$SEER" ocr -m "$q/model.gguf" --mmproj "$q/mmproj.gguf" "$A" > "$tmp/out" 2>"$tmp/err"
  [ $? -eq 2 ] || fail "a model without an OCR prompt was not refused"
  [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q 'no documented OCR prompt: give one with -p' "$tmp/err" ||
    fail "refusal: $(cat "$tmp/err")"
  "$SEER" ocr -q -m "$q/model.gguf" --mmproj "$q/mmproj.gguf" -p "Read the text." -n 2 "$A" > "$tmp/out" 2>"$tmp/err" ||
    fail "-p did not make it run: $(cat "$tmp/err")"
  [ "$(head -n 1 "$tmp/out")" = "==> $A <==" ] || fail "-p run header"
fi
# GLM-OCR (glm4 with a NextN block) reads with "Text Recognition:", GLM-4.6V-Flash
# (the same projector and arch, no NextN block) has no OCR prompt
g=$(cd "$(dirname "$0")/../conformance/cases" && pwd)
if [ -f "$g/glmocr-q8_0-twoimg/model.gguf" ] && [ -f "$g/glm4v-f32/model.gguf" ]; then
  "$SEER" ocr -q -m "$g/glmocr-q8_0-twoimg/model.gguf" --mmproj "$g/glmocr-q8_0-twoimg/mmproj.gguf" -n 6 "$A" \
    > "$tmp/glm" 2>"$tmp/err" || fail "GLM-OCR: $(cat "$tmp/err")"
  "$SEER" ocr -q -m "$g/glmocr-q8_0-twoimg/model.gguf" --mmproj "$g/glmocr-q8_0-twoimg/mmproj.gguf" -n 6 \
    -p "Text Recognition:" "$A" > "$tmp/glm-p" 2>"$tmp/err" || fail "GLM-OCR -p: $(cat "$tmp/err")"
  cmp -s "$tmp/glm" "$tmp/glm-p" || fail "GLM-OCR did not read with 'Text Recognition:'"
  "$SEER" ocr -m "$g/glm4v-f32/model.gguf" --mmproj "$g/glm4v-f32/mmproj.gguf" "$A" > /dev/null 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q 'no documented OCR prompt' "$tmp/err" || fail "GLM-4.6V-Flash: $(cat "$tmp/err")"
fi
# dots.ocr reads with its own prompt too (no -p needed)
o="$here/../conformance/cases/dotsocr-f32"
if [ -f "$o/model.gguf" ]; then
  "$SEER" ocr -q -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" -n 4 "$A" > "$tmp/out" 2>"$tmp/err" || fail "dots.ocr: $(cat "$tmp/err")"
  [ "$(head -n 1 "$tmp/out")" = "==> $A <==" ] || fail "dots.ocr header"
  "$SEER" ocr -q -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" -n 4 -p "Extract the text content from this image." "$A" \
    > "$tmp/dots-p" 2>"$tmp/err" || fail "dots.ocr -p: $(cat "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/dots-p" || fail "dots.ocr did not read with its prompt_ocr"
fi
# HunyuanOCR reads with its doc_parse prompt (no -p needed)
o="$here/../conformance/cases/hunyuanocr-f32"
if [ -f "$o/model.gguf" ]; then
  "$SEER" ocr -q -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" -n 4 "$A" > "$tmp/out" 2>"$tmp/err" || fail "HunyuanOCR: $(cat "$tmp/err")"
  [ "$(head -n 1 "$tmp/out")" = "==> $A <==" ] || fail "HunyuanOCR header"
  "$SEER" ocr -q -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" -n 4 \
    -p "$(sed -e 's/^<｜hy_begin▁of▁sentence｜><__media__>//' -e 's/<｜hy_User｜>$//' "$o/prompt.txt")" "$A" \
    > "$tmp/hy-p" 2>"$tmp/err" || fail "HunyuanOCR -p: $(cat "$tmp/err")"
  cmp -s "$tmp/out" "$tmp/hy-p" || fail "HunyuanOCR did not read with its doc_parse prompt"
fi
# LightOnOCR reads the image alone (its model card's user turn has no text): the
# block is what the same greedy run of the raw ChatML turn with only the image gives
o="$here/../conformance/cases/lightonocr-f32-twoimg"
if [ -f "$o/model.gguf" ]; then
  "$SEER" ocr -q -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" -n 8 "$A" > "$tmp/out" 2>"$tmp/err" || fail "LightOnOCR: $(cat "$tmp/err")"
  [ "$(head -n 1 "$tmp/out")" = "==> $A <==" ] || fail "LightOnOCR header"
  printf '<|im_start|>user\n<__media__><|im_end|>\n<|im_start|>assistant\n' > "$tmp/lo-prompt"
  "$SEER" -m "$o/model.gguf" --mmproj "$o/mmproj.gguf" --image "$A" --raw -f "$tmp/lo-prompt" -n 8 --temp 0 \
    > "$tmp/lo-raw" 2>"$tmp/err" || fail "LightOnOCR raw: $(cat "$tmp/err")"
  python3 -c 'import sys; a = open(sys.argv[1]).read().split("\n", 1)[1].rstrip("\n"); b = open(sys.argv[2]).read().rstrip("\n")
sys.exit(0 if a == b and a else 1)' "$tmp/out" "$tmp/lo-raw" ||
    fail "LightOnOCR did not read with the image alone: $(cat "$tmp/out") vs $(cat "$tmp/lo-raw")"
fi
"$SEER" ocr -m "$d/model.gguf" "$A" > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- '--mmproj' "$tmp/err" || fail "no --mmproj: $(cat "$tmp/err")"
ocr "$tmp/missing.png" > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'no such file' "$tmp/err" || fail "missing file: $(cat "$tmp/err")"
ocr --vision-precision fp8 "$A" > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q -- '--vision-precision takes exact or bf16' "$tmp/err" ||
  fail "bad --vision-precision: $(cat "$tmp/err")"

# --vision-precision bf16: the PaddleOCR-VL case's text does not move with its
# image at all (random weights), so a random qwen2vl LLM (make_tiny_model, whose
# greedy text follows the image) reads after the synthetic Qwen2.5-VL tower
# (F32 matrices). Where the CPU has BF16 dot products the encoder's small
# rounding changes the text; elsewhere one line says so and the text is the exact one.
"$SEER" bench --synth tiny-qwen25vl --out "$tmp" >/dev/null 2>&1 || fail "seer bench --synth tiny-qwen25vl"
"$TOOLS/make_tiny_model" --arch qwen2vl --type q8_0 --out "$tmp/tiny.gguf" --layers 2 --embd 256 --ff 768 --heads 4 \
  --kv-heads 2 --vocab 2000 >/dev/null || fail "make_tiny_model"
tiny() { "$SEER" ocr -q -m "$tmp/tiny.gguf" --mmproj "$tmp/tiny-qwen25vl-mmproj.gguf" -p "Read." -n 24 -t 2 "$@" "$A" "$B"; }
tiny > "$tmp/exact" 2>"$tmp/err" || fail "tiny exact: $(cat "$tmp/err")"
tiny --vision-precision bf16 > "$tmp/bf16" 2>"$tmp/err" || fail "tiny bf16: $(cat "$tmp/err")"
if grep -q 'no BF16 dot products here' "$tmp/err"; then
  cmp -s "$tmp/exact" "$tmp/bf16" || fail "bf16 without BF16 dot products is not the exact text"
else
  [ ! -s "$tmp/err" ] || fail "bf16 said: $(cat "$tmp/err")"
  cmp -s "$tmp/exact" "$tmp/bf16" && fail "--vision-precision bf16 gave the exact text: the flag had no effect"
  cmp -s <(head -n 1 "$tmp/exact") <(head -n 1 "$tmp/bf16") || fail "bf16: the blocks changed"
fi
"$SEER" ocr --help | grep -q '^example: seer ocr ' || fail "--help has no example line"
echo "ok"
