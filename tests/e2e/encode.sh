#!/usr/bin/env bash
# seer encode end to end: exit codes and one-line errors always; with the
# conformance suite present, whole images (decode, preprocess, every tile and
# overview chunk, ViT, projector) against llama.cpp's image embeddings, and
# 1 vs 2 threads.
set -u
SEER=${SEER:?SEER must point at the seer binary}
fail=0
err() { echo "FAIL: $*"; fail=1; }
one_line() { [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Usage errors: exit 2, one line on stderr.
out=$("$SEER" encode 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || err "no arguments: exit $rc, want 2"
one_line "$out" || err "no arguments: error is not one line: $out"
"$SEER" encode --mmproj a.gguf --image b.png -o c.f32 --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "unknown option: exit $rc, want 2"
"$SEER" encode --mmproj a.gguf --image b.png -o c.f32 -t zero >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "bad thread count: exit $rc, want 2"
"$SEER" encode --mmproj a.gguf --image b.png >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "missing -o: exit $rc, want 2"
"$SEER" encode --mmproj a.gguf --image b.png -o c.f32 --image-preproc pillow >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || err "bad --image-preproc: exit $rc, want 2"
out=$("$SEER" encode --mmproj a.gguf --image b.png -o c.f32 --vision-precision fp8 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || err "bad --vision-precision: exit $rc, want 2"
one_line "$out" || err "bad --vision-precision: error is not one line: $out"
"$SEER" encode --help | grep -q "usage: seer encode" || err "--help prints no usage"

# File problems: exit 1, one line, no output file.
out=$("$SEER" encode --mmproj /nonexistent/mmproj.gguf --image x.png -o "$tmp/o.f32" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "missing mmproj: exit $rc, want 1"
one_line "$out" || err "missing mmproj: error is not one line: $out"
printf 'GGUF\3\0\0\0garbage' > "$tmp/bad.gguf"
"$SEER" encode --mmproj "$tmp/bad.gguf" --image x.png -o "$tmp/o.f32" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || err "corrupt mmproj: exit $rc, want 1"
[ -e "$tmp/o.f32" ] && err "an output file was left after a failure"

dir=${CONFORMANCE_DIR:-../shared/conformance}
if [ ! -d "$dir" ]; then
  echo "SKIP: conformance folder not found; only error paths checked"
  exit $fail
fi

mmproj="$dir/cases/llava15-q8_0/mmproj.gguf"
out=$("$SEER" encode --mmproj "$mmproj" --image /nonexistent/x.png -o "$tmp/o.f32" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || err "missing image: exit $rc, want 1"
one_line "$out" || err "missing image: error is not one line: $out"
printf 'not an image' > "$tmp/bad.png"
"$SEER" encode --mmproj "$mmproj" --image "$tmp/bad.png" -o "$tmp/o.f32" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ] || err "corrupt image: exit $rc, want 1"
[ -e "$tmp/o.f32" ] && err "an output file was left after a failure"

# Whether two float files' rel_l2 (|a - b| / |b|, printed with the label)
# lies in [lo, hi], same lengths.
within() { # label a.f32 b.f32 lo hi
  python3 -c 'import math, sys
from array import array
a, b = array("f", open(sys.argv[2], "rb").read()), array("f", open(sys.argv[3], "rb").read())
d = math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))) / math.sqrt(sum(y * y for y in b))
print("%s: rel_l2 %.3g" % (sys.argv[1], d))
sys.exit(0 if len(a) == len(b) and float(sys.argv[4]) <= d <= float(sys.argv[5]) else 1)' "$@"
}

# Checks seer's output against the case's image_embd_<k>.f32 files, in order.
compare() { # case out.f32
  python3 - "$dir/cases/$1" "$2" <<'EOF'
import json, math, sys
from array import array
def load(path):
    a = array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    return a
def rel_l2(x, r):
    return math.sqrt(sum((a - b) ** 2 for a, b in zip(x, r)) / sum(b * b for b in r))
case, out = sys.argv[1], sys.argv[2]
tol = json.load(open(case + "/case.json"))["tolerance"]["image_embd_rel_l2"]
chunks = [c for c in json.load(open(case + "/expected/tokens.json"))["chunks"] if c["type"] == "image"]
got = load(out)
ref = array("f")
for c in chunks:
    ref.extend(load(case + "/expected/" + c["embd_file"]))
if len(got) != len(ref):
    sys.exit("%s: %d floats, want %d" % (case, len(got), len(ref)))
off, bad = 0, 0
for c in chunks:
    n = c["n_tokens"] * c["n_embd"]
    r = rel_l2(got[off:off+n], ref[off:off+n])
    if r > tol:
        print("%s chunk %d: rel_l2 %.3e > %.1e" % (case, c["index"], r, tol)); bad = 1
    off += n
sys.exit(bad)
EOF
}

for name in llava15-q8_0 llava16-f32 smolvlm-q8_0 qwen25vl-f32-twoimg; do
  c="$dir/cases/$name"
  mm=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["mmproj"])' "$c/case.json")
  args=()
  while read -r img; do args+=(--image "$c/$img"); done < <(python3 -c \
      'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["images"]))' "$c/case.json")
  want=$(python3 -c 'import json,sys
ch=[c for c in json.load(open(sys.argv[1]))["chunks"] if c["type"]=="image"]
print("%d x %d" % (sum(c["n_tokens"] for c in ch), ch[0]["n_embd"]))' "$c/expected/tokens.json")
  got=$("$SEER" encode --mmproj "$c/$mm" "${args[@]}" -o "$tmp/$name.f32" -t 2 --image-preproc llamacpp \
      2>"$tmp/$name.err"); rc=$?
  [ $rc -eq 0 ] || { err "$name: exit $rc: $(cat "$tmp/$name.err")"; continue; }
  [ "$got" = "$want" ] || err "$name: printed [$got], want [$want]"
  grep -q "encode .* ms" "$tmp/$name.err" || err "$name: no timing printed"
  compare "$name" "$tmp/$name.f32" || err "$name: embeddings differ from llama.cpp"
done

# One thread computes the same embeddings.
c="$dir/cases/llava15-q8_0"
"$SEER" encode --mmproj "$c/mmproj.gguf" --image "$dir/images/test-1-positive.png" -o "$tmp/t1.f32" -t 1 \
  --image-preproc llamacpp >/dev/null 2>&1 || err "-t 1 failed"
within "1 vs 2 threads" "$tmp/t1.f32" "$tmp/llava15-q8_0.f32" 0 1e-5 || err "1 and 2 threads give different embeddings"

# OpenBLAS's kernel set (its own choice, or an older CPU's forced through
# OPENBLAS_CORETYPE as some machines do) changes no bit: none of seer's
# products go through it. MiniCPM-V's resampler, whose attention was the
# encoders' last OpenBLAS product until 2026-12-05, shows it.
if [ "$(uname -m)" = x86_64 ]; then
  c="$(dirname "$0")/../conformance/cases/minicpmv26-f32"
  for blas in self Prescott; do
    choice=(-u OPENBLAS_CORETYPE)
    [ $blas = self ] || choice=(OPENBLAS_CORETYPE=$blas)
    env -u OPENBLAS_L2_SIZE "${choice[@]}" "$SEER" encode --mmproj "$c/mmproj.gguf" --image "$dir/images/test-1.jpeg" \
      -o "$tmp/blas-$blas.f32" -t 2 >/dev/null 2>&1 || err "MiniCPM-V encode with OpenBLAS $blas failed"
  done
  cmp -s "$tmp/blas-self.f32" "$tmp/blas-Prescott.f32" ||
    err "MiniCPM-V's embeddings change with OpenBLAS's kernel set (its own choice vs Prescott's)"
fi

# --vision-precision bf16: near the exact embeddings (docs/correctness.md:
# rel_l2 below 0.03 on every case) but not them where the CPU has BF16 dot
# products; elsewhere one line says so and the embeddings are the exact ones.
c="$dir/cases/llava15-f32"
"$SEER" encode --mmproj "$c/mmproj.gguf" --image "$dir/images/test-1-positive.png" -o "$tmp/x.f32" -t 2 \
  --image-preproc llamacpp >/dev/null 2>&1 || err "llava15-f32 exact failed"
"$SEER" encode --mmproj "$c/mmproj.gguf" --image "$dir/images/test-1-positive.png" -o "$tmp/b.f32" -t 2 \
  --image-preproc llamacpp --vision-precision bf16 >/dev/null 2>"$tmp/b.err" || err "--vision-precision bf16 failed"
if grep -q "no BF16 dot products" "$tmp/b.err"; then lo=0; hi=0; else lo=1e-4; hi=0.03; fi
within "bf16 against exact" "$tmp/b.f32" "$tmp/x.f32" $lo $hi ||
  err "--vision-precision bf16: embeddings not within [$lo, $hi] of the exact ones"

# A Q8_0 mmproj (seer quantize) on a CPU without an int8 GEMM for it (AVX2,
# asked for with SEER_SIMD on any x86 CPU): its blocks' matrices are
# interleaved at load and read by the several-row int8 dot kernels
# (SEER_INTERLEAVE=0 keeps the file's layout, widened into the FP32 GEMM's
# panels). The same sums in another order; through the blocks the
# activations' Q8_0 rounding then falls differently here and there, so
# each is as far from the F32 encoder (rel_l2 0.018 measured) and the two
# differ (0.011), where a wrong row or block would be off by its whole size.
if grep -q avx2 /proc/cpuinfo 2>/dev/null; then
  c="$(dirname "$0")/../conformance/cases/qwen3vl-f32"
  "$SEER" quantize "$c/mmproj.gguf" "$tmp/mm-q8.gguf" Q8_0 2>/dev/null || err "quantizing an mmproj to Q8_0 failed"
  for run in f32:"$c/mmproj.gguf" interleaved:"$tmp/mm-q8.gguf" file:"$tmp/mm-q8.gguf"; do
    env SEER_SIMD=avx2 $([ "${run%%:*}" = file ] && echo SEER_INTERLEAVE=0) "$SEER" encode --mmproj "${run#*:}" \
      --image "$dir/images/test-1-positive.png" -o "$tmp/q8-${run%%:*}.f32" -t 2 >/dev/null 2>&1 ||
      err "Q8_0 mmproj, ${run%%:*}: encode failed"
  done
  for layout in interleaved file; do
    within "Q8_0 encoder ($layout layout) against the F32 one" "$tmp/q8-$layout.f32" "$tmp/q8-f32.f32" 1e-3 0.05 ||
      err "Q8_0 mmproj at AVX2, $layout layout: embeddings not within [1e-3, 0.05] of the F32 encoder's"
  done
  within "Q8_0 encoder, interleaved against the file's layout" "$tmp/q8-interleaved.f32" "$tmp/q8-file.f32" 1e-6 0.05 ||
    err "Q8_0 mmproj at AVX2: the interleaved layout's embeddings are the file layout's (not interleaved?) or far from them"
  # and seer info names the kernel that ran, not the F16 matrices' one:
  # at plain AVX2 (not its VNNI builds) the 16-bit products
  line=$(SEER_SIMD=avx2 SEER_AVX2_VNNI=0 "$SEER" info "$tmp/mm-q8.gguf" 2>/dev/null | grep '^encoder here')
  [ "$line" = "encoder here  Q8_0 matrices: dot16x4_i16" ] || err "seer info on a Q8_0 mmproj at plain AVX2: '$line'"
fi
exit $fail
