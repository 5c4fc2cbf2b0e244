#!/usr/bin/env bash
# Bad images end to end: every kind of broken picture gives exit 1 and one
# clear line naming the file and the problem (through `seer encode` on a tiny
# mmproj written by make_tiny_model), and a good picture in each stb format
# still encodes.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the built test tools}
fail=0
err() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$TOOLS/make_tiny_model" --out "$tmp/m.gguf" --mmproj "$tmp/p.gguf" >/dev/null || { echo "FAIL: make_tiny_model"; exit 1; }

# expect FILE FRAGMENT: encode fails with exit 1 and one line containing FRAGMENT.
expect() {
  local out rc
  out=$("$SEER" encode --mmproj "$tmp/p.gguf" --image "$1" -o "$tmp/o.f32" 2>&1 >/dev/null); rc=$?
  [ $rc -eq 1 ] || err "$(basename "$1"): exit $rc, want 1 ($out)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || err "$(basename "$1"): error is not one line: $out"
  case "$out" in *"$2"*) ;; *) err "$(basename "$1"): '$out' lacks '$2'";; esac
  case "$out" in *$'\e'*|*$'\a'*) err "$(basename "$1"): control bytes in the error";; esac
  [ -e "$tmp/o.f32" ] && { err "$(basename "$1"): output left after a failure"; rm -f "$tmp/o.f32"; }
}

python3 - "$tmp" <<'PY'
import struct, sys, zlib
d = sys.argv[1]
def chunk(t, data):
    return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xffffffff)
def png(w, h, rows=None):
    raw = rows if rows is not None else b"".join(b"\0" + bytes((x * 7 + y) & 255 for x in range(w * 3)) for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
good = png(40, 30)
open(f"{d}/good.png", "wb").write(good)
open(f"{d}/truncated.png", "wb").write(good[: len(good) // 2])
open(f"{d}/big.png", "wb").write(png(100000, 100000, rows=b""))
open(f"{d}/zero.png", "wb").write(png(0, 10, rows=b""))
open(f"{d}/photo.jpg", "wb").write(b"this is a text file, not a photo\n")
open(f"{d}/empty.png", "wb").close()
open(f"{d}/cut.jpg", "wb").write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
# lossless formats of the same picture
w, h = 17, 9
pix = [[((x * 31 + y * 17) & 255, (x * 5 + y * 29) & 255, (x ^ y) * 13 & 255) for x in range(w)] for y in range(h)]
open(f"{d}/good.ppm", "wb").write(b"P6\n%d %d\n255\n" % (w, h) + bytes(v for row in pix for p in row for v in p))
stride = (w * 3 + 3) & ~3
bmp_rows = b"".join(bytes(v for p in pix[y] for v in p[::-1]) + b"\0" * (stride - w * 3) for y in reversed(range(h)))
open(f"{d}/good.bmp", "wb").write(b"BM" + struct.pack("<IHHI", 54 + len(bmp_rows), 0, 0, 54)
                                   + struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(bmp_rows), 2835, 2835, 0, 0) + bmp_rows)
tga = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, w, h, 24, 0x20) + bytes(v for row in pix for p in row for v in p[::-1])
open(f"{d}/good.tga", "wb").write(tga)
PY
mkdir "$tmp/folder.png"
ln -s /nonexistent/target "$tmp/dangling.png"

expect "$tmp/photo.jpg" "photo.jpg: not an image (unknown format)"
expect "$tmp/truncated.png" "truncated.png: truncated or corrupt PNG ("
expect "$tmp/big.png" "big.png: 100000×100000 is over the limit of 64 megapixels"
expect "$tmp/zero.png" "zero.png: PNG image has no pixels"
expect "$tmp/empty.png" "empty.png: empty file"
expect "$tmp/cut.jpg" "cut.jpg: truncated or corrupt JPEG"
expect "$tmp/folder.png" "folder.png: is a directory"
expect "$tmp/dangling.png" "dangling.png: No such file or directory"
printf 'junk' > "$tmp/evil"$'\e'"]2;x"$'\a'".png"
expect "$tmp/evil"$'\e'"]2;x"$'\a'".png" "not an image"

for f in good.png good.ppm good.bmp good.tga; do
  out=$("$SEER" encode --mmproj "$tmp/p.gguf" --image "$tmp/$f" -o "$tmp/o.f32" 2>&1); rc=$?
  [ $rc -eq 0 ] || err "$f: exit $rc: $out"
  [ -s "$tmp/o.f32" ] || err "$f: no embeddings written"
  rm -f "$tmp/o.f32"
done
# The three lossless encodings of one picture give the same embeddings.
for f in good.ppm good.bmp good.tga; do "$SEER" encode --mmproj "$tmp/p.gguf" --image "$tmp/$f" -o "$tmp/$f.f32" >/dev/null 2>&1; done
cmp -s "$tmp/good.ppm.f32" "$tmp/good.bmp.f32" || err "PPM and BMP of the same picture encode differently"
cmp -s "$tmp/good.ppm.f32" "$tmp/good.tga.f32" || err "PPM and TGA of the same picture encode differently"
exit $fail
