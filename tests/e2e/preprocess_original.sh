#!/usr/bin/env bash
# `seer encode --dump-pixels` in the default (original) mode against the
# models' own processors (conformance/preprocess, HF transformers): for
# every entry of its index.json, the encoder inputs of the family's
# conformance mmproj must have the stored count and sizes and lie within
# relative L2 1e-2 (the README's tolerance). (llama.cpp mode's distances:
# test_image_original prints them; encode.sh runs that mode against
# llama.cpp's embeddings.)
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built tests/tools}
dir=${CONFORMANCE_DIR:-../shared/conformance}
if [ ! -f "$dir/preprocess/index.json" ]; then
  echo "SKIP: $dir/preprocess not found"
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
while IFS=$'\t' read -r family image mean std files; do
  case $family in
    qwen25vl) case_dir=qwen25vl-f32 ;;
    llava15pad) case_dir=llava15-f32 ;;
    smolvlm) case_dir=smolvlm-f32 ;;
    *) echo "FAIL: no mmproj for family $family"; fail=1; continue ;;
  esac
  read -r -a pngs <<<"$files"
  if ! "$SEER" encode --mmproj "$dir/cases/$case_dir/mmproj.gguf" --image "$dir/images/$image" \
      -o "$tmp/embd.f32" --dump-pixels "$tmp/px.f32" -t 2 >/dev/null 2>"$tmp/err"; then
    echo "FAIL: $family $image: $(cat "$tmp/err")"; fail=1; continue
  fi
  if out=$("$TOOLS/pixels_vs_png" "$tmp/px.f32" "$mean" "$std" 1e-2 "${pngs[@]/#/$dir/preprocess/}" 2>&1); then
    echo "$family $image: ${#pngs[@]} inputs, $(echo "$out" | tail -1)"
  else
    echo "FAIL: $family $image: $(echo "$out" | tail -3)"; fail=1
  fi
done < <(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    print("\t".join([e["family"], e["image"], " ".join(map(str, e["mean"])), " ".join(map(str, e["std"])),
                     " ".join(e["files"])]))' "$dir/preprocess/index.json")
exit $fail
