#!/usr/bin/env bash
# `seer embed` against the golden embedding cases (conformance/embeddings,
# HF transformers Qwen2.5-VL in float64 with jina-embeddings-v4's pooling):
# token ids, every token's final hidden state, single vectors (and their
# Matryoshka cut), multi-vectors, MaxSim and the image's pixels, within each
# case's tolerances (embed_check.py). Then the output formats, batching,
# --vision-precision bf16 and the errors of the command on the same model.
set -u
SEER=${SEER:?SEER must point at the seer binary}
dir=${CONFORMANCE_DIR:-../shared/conformance}
if [ ! -d "$dir/embeddings" ]; then
  echo "SKIP: $dir/embeddings not found"
  exit 0
fi
here=$(dirname "$0")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for case_json in "$dir"/embeddings/*/case.json; do
  [ -f "$case_json" ] || continue
  case_dir=$(dirname "$case_json"); name=$(basename "$case_dir")
  mkdir -p "$tmp/$name"
  if out=$(python3 "$here/embed_check.py" "$SEER" "$case_dir" "$tmp/$name" 2>&1); then
    echo "$name: $(echo "$out" | grep -c '^ok') checks within tolerance"
  else
    echo "FAIL: $name"; fail=1
  fi
  echo "$out" | sed 's/^/  /'
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "FAIL: no cases in $dir/embeddings"; exit 1; }

# Formats: the same two vectors as json, jsonl, f32 and npy.
case_dir=$(dirname "$(ls "$dir"/embeddings/*/case.json | head -1)")
model=$(python3 -c 'import json,sys,os; c=json.load(open(sys.argv[1]+"/case.json")); print(os.path.join(sys.argv[1], c["llm"]))' "$case_dir")
for f in json jsonl f32 npy; do
  if ! "$SEER" embed -m "$model" -p "a red circle" -p "two blue squares" --role passage --dim 64 --format "$f" \
      -o "$tmp/out.$f" -t 2 2>"$tmp/err"; then
    echo "FAIL: --format $f: $(cat "$tmp/err")"; fail=1
  fi
done
if ! python3 - "$tmp" <<'PY'
import json, struct, sys
t = sys.argv[1]
doc = json.load(open(t + "/out.json"))
lines = [json.loads(l) for l in open(t + "/out.jsonl")]
raw = open(t + "/out.f32", "rb").read()
npy = open(t + "/out.npy", "rb").read()
rows = [d["embedding"] for d in doc["data"]]
assert doc["object"] == "list" and [d["index"] for d in doc["data"]] == [0, 1], doc.keys()
assert [l["embedding"] for l in lines] == rows and [l["index"] for l in lines] == [0, 1]
assert len(rows) == 2 and all(len(r) == 64 for r in rows)
assert abs(sum(v * v for v in rows[0]) - 1) < 1e-5, "not normalised"
f32 = list(struct.unpack("<128f", raw))
assert all(abs(a - b) < 1e-7 for a, b in zip(f32, rows[0] + rows[1])), "f32 differs from json"
assert npy[:6] == b"\x93NUMPY" and b"'shape': (2, 64)" in npy[:128], npy[:80]
hl = struct.unpack("<H", npy[8:10])[0]
assert (10 + hl) % 64 == 0 and npy[10 + hl:] == raw, "npy body differs from f32"
PY
then echo "FAIL: the output formats disagree"; fail=1
else echo "formats: json, jsonl, f32 and npy agree"
fi

# A text of 2100 tokens (several decoder batches) begins with the hidden
# states of its first ten words alone (causal attention); --file and a
# directory give one vector per line / image, in order, equal to one-by-one
# runs; --image-max-tokens bounds an image's tokens.
python3 -c 'print(" ".join(["moon"] * 700)); print(" ".join(["moon"] * 10))' >"$tmp/texts.txt"
mmproj=$(dirname "$model")/mmproj.gguf
mkdir -p "$tmp/imgs" "$tmp/long" "$tmp/short"
cp "$dir/images/test-1.jpeg" "$tmp/imgs/b.jpeg"; cp "$here/../../assets/images/demo.png" "$tmp/imgs/a.png"
"$SEER" embed -m "$model" --file "$tmp/texts.txt" --format jsonl -t 2 >"$tmp/file.jsonl" 2>"$tmp/err" &&
  "$SEER" embed -m "$model" -p "$(head -1 "$tmp/texts.txt")" --dump "$tmp/long" -t 2 >"$tmp/one.jsonl" 2>>"$tmp/err" &&
  "$SEER" embed -m "$model" -p "$(tail -1 "$tmp/texts.txt")" --dump "$tmp/short" -t 2 >>"$tmp/one.jsonl" 2>>"$tmp/err" &&
  "$SEER" embed -m "$model" --mmproj "$mmproj" --image "$tmp/imgs" --format jsonl -t 2 >"$tmp/dir.jsonl" 2>>"$tmp/err" &&
  "$SEER" embed -m "$model" --mmproj "$mmproj" --image "$tmp/imgs/a.png" --image "$tmp/imgs/b.jpeg" --format jsonl \
    -t 2 >"$tmp/files.jsonl" 2>>"$tmp/err" &&
  "$SEER" embed -m "$model" --mmproj "$mmproj" --image "$tmp/imgs/b.jpeg" --image-max-tokens 64 --dump "$tmp/small" \
    -t 2 >/dev/null 2>>"$tmp/err" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }
if ! python3 - "$tmp" <<'PY'
import json, math, struct, sys
t = sys.argv[1]
def rows(path):
    return [json.loads(l)["embedding"] for l in open(path)]
def near(a, b, tol=1e-6):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))) <= tol
f, one = rows(t + "/file.jsonl"), [json.loads(l)["data"][0]["embedding"] for l in open(t + "/one.jsonl")]
assert len(f) == 2 and all(near(a, b) for a, b in zip(f, one)), "--file differs from -p"
ids_long, ids_short = (open(t + "/%s/ids_0.txt" % d).read().split() for d in ("long", "short"))
assert len(ids_long) > 1024 and ids_long[:len(ids_short)] == ids_short, (len(ids_long), len(ids_short))
n = len(ids_short)
hl, hs = (open(t + "/%s/hidden_0.f32" % d, "rb").read() for d in ("long", "short"))
a, b = struct.unpack("<%df" % (len(hs) // 4), hl[:len(hs)]), struct.unpack("<%df" % (len(hs) // 4), hs)
err = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / sum(y * y for y in b))
assert err < 1e-5, "the long text's first %d rows are %.3g from the short text's" % (n, err)
d, fl = rows(t + "/dir.jsonl"), rows(t + "/files.jsonl")
assert len(d) == 2 and all(near(x, y) for x, y in zip(d, fl)), "a directory differs from its files by name"
small = open(t + "/small/ids_0.txt").read().split()
assert 8 + 11 <= len(small) <= 64 + 11, "--image-max-tokens 64 gave %d tokens" % len(small)
print("long text prefix %.2g, --file, directory order and --image-max-tokens (%d tokens) ok" % (err, len(small)))
PY
then echo "FAIL: inputs"; fail=1
fi

# Batched image encoding: the conformance images and the demo image at 64
# tokens share one vision pass by default; one by one (--batch 1) gives the
# same vectors.
mkdir -p "$tmp/many"; cp "$dir"/images/* "$here/../../assets/images/demo.png" "$tmp/many/"
for b in 1 8; do
  "$SEER" embed -m "$model" --mmproj "$mmproj" --image "$tmp/many" --image-max-tokens 64 --batch $b --format jsonl \
    -t 2 >"$tmp/batch$b.jsonl" 2>"$tmp/err" || { echo "FAIL: --batch $b: $(cat "$tmp/err")"; fail=1; }
done
if ! python3 - "$tmp" <<'PY'
import json, math, sys
t = sys.argv[1]
one, many = ([json.loads(l)["embedding"] for l in open(t + "/batch%d.jsonl" % b)] for b in (1, 8))
assert len(one) == len(many) >= 4, (len(one), len(many))
worst = max(math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))) for a, b in zip(one, many))
assert worst < 1e-5, "batched encoding is %.3g from one by one" % worst
print("%d images batched: %.2g from one by one" % (len(one), worst))
PY
then echo "FAIL: batched encoding"; fail=1
fi

# --vision-precision bf16: an image's vector near the exact one (the
# encoder's BF16 rounding moves image embeddings by rel_l2 < 0.03,
# docs/correctness.md; the pooled vector here by about 0.01) but not it where
# the CPU has BF16 dot products; elsewhere one line says so and the vector is the exact one.
for p in exact bf16; do
  "$SEER" embed -m "$model" --mmproj "$mmproj" --image "$tmp/imgs/b.jpeg" --image-max-tokens 64 --format f32 \
    --vision-precision $p -o "$tmp/prec-$p.f32" -t 2 2>"$tmp/prec-$p.err" || { echo "FAIL: --vision-precision $p: $(cat "$tmp/prec-$p.err")"; fail=1; }
done
if grep -q "no BF16 dot products here" "$tmp/prec-bf16.err"; then lo=0; hi=0; else lo=1e-4; hi=0.05; fi
python3 -c 'import math, sys
from array import array
a, b = (array("f", open(f, "rb").read()) for f in sys.argv[1:3])
d = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / sum(y * y for y in b))
print("--vision-precision bf16: rel_l2 %.3g from the exact vector" % d)
sys.exit(0 if len(a) == len(b) > 0 and float(sys.argv[3]) <= d <= float(sys.argv[4]) else 1)' \
  "$tmp/prec-bf16.f32" "$tmp/prec-exact.f32" $lo $hi || { echo "FAIL: --vision-precision bf16 not within [$lo, $hi] of exact"; fail=1; }

# Bad input: one clear line, exit 1 or 2, never a crash.
expect_error() { # status pattern args...
  local want=$1 pat=$2; shift 2
  "$SEER" embed "$@" >"$tmp/out" 2>"$tmp/err"; local st=$?
  if [ "$st" != "$want" ] || ! grep -q -- "$pat" "$tmp/err" || [ "$(wc -l <"$tmp/err")" != 1 ]; then
    echo "FAIL: seer embed $* -> status $st, stderr: $(cat "$tmp/err")"; fail=1
  fi
}
expect_error 2 "nothing to embed" -m "$model"
expect_error 2 "needs --mv-proj" -m "$model" -p x --multi
expect_error 2 "need --mmproj" -m "$model" --image "$here/../../assets/images/demo.png"
expect_error 2 "--role takes" -m "$model" -p x --role answer
expect_error 2 "--batch takes" -m "$model" -p x --batch 0
expect_error 2 "--vision-precision takes exact or bf16" -m "$model" -p x --vision-precision fp8
expect_error 1 "wider than" -m "$model" -p x --dim 100000
expect_error 1 "mv_proj" -m "$model" -p x --multi --mv-proj "$model"
mkdir "$tmp/empty"
expect_error 1 "no images in" -m "$model" --image "$tmp/empty"
expect_error 1 "cannot open" -m "$model" --image "$tmp/missing.png"
expect_error 1 "cannot open" -m "$model" --file "$tmp/missing.txt"
echo "not an image" >"$tmp/bad.png"
expect_error 1 "bad.png" -m "$model" --mmproj "$(dirname "$model")/mmproj.gguf" --image "$tmp/bad.png"
exit $fail
