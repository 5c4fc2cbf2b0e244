#!/usr/bin/env bash
# Outputs that never clobber (seer_safe_open), through the real commands
# (encode -o, embed -o, quantize OUT) on tiny models: a character device
# stays one (/dev/null; as root a mknod copy of it, so a regression cannot
# replace the machine's own), a FIFO read by another process gets the bytes
# and stays a FIFO, a symbolic link stays a link and its target gets the
# bytes, `-` is standard output, an existing file keeps its mode, and a
# read-only folder gives a one-line error and leaves nothing. Run as root,
# the whole script runs again as the user nobody.
set -u
SEER=${SEER:?SEER must point at the seer binary}
TOOLS=${TOOLS:?TOOLS must point at the test tools}
fail=0
bad() { echo "FAIL${AS:+ ($AS)}: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)

"$TOOLS/make_tiny_model" --arch qwen2vl --type f32 --out "$tmp/q.gguf" --mmproj "$tmp/mm.gguf" >/dev/null ||
  { echo "FAIL: make_tiny_model"; exit 1; }
image=$here/../../assets/images/demo.png

write_encode() { # its "rows x width" line goes to stdout, or with -o - to stderr
  if [ "$1" = - ]; then "$SEER" encode --mmproj "$tmp/mm.gguf" --image "$image" -o - -t 1 2>"$tmp/err"
  else "$SEER" encode --mmproj "$tmp/mm.gguf" --image "$image" -o "$1" -t 1 2>"$tmp/err" >/dev/null; fi
}
write_embed() { "$SEER" embed -m "$tmp/q.gguf" -p "a red circle" --format f32 -o "$1" -t 1 2>"$tmp/err"; }
write_quantize() { "$SEER" quantize --force "$tmp/q.gguf" "$1" Q8_0 2>"$tmp/err"; }

for w in encode embed quantize; do
  d=$tmp/$w; mkdir "$d"
  ref=$d/ref
  "write_$w" "$ref" || { bad "$w: $(cat "$tmp/err")"; continue; }
  [ -s "$ref" ] || { bad "$w wrote nothing"; continue; }

  # a character device: written in place
  if [ "$(id -u)" = 0 ]; then
    dev=$d/null-node
    mknod "$dev" c 1 3 || { bad "mknod"; continue; }
  else
    dev=/dev/null
  fi
  "write_$w" "$dev" || bad "$w to $dev: $(cat "$tmp/err")"
  [ -c "$dev" ] || bad "$w replaced the character device $dev with $(stat -c %F "$dev")"

  # a FIFO read by another process
  mkfifo "$d/fifo"
  timeout 10 cat "$d/fifo" >"$d/from-fifo" & # waits in vain if the FIFO is replaced
  reader=$!
  "write_$w" "$d/fifo" || bad "$w to a FIFO: $(cat "$tmp/err")"
  wait "$reader" || bad "$w: the FIFO's reader got no end of file"
  cmp -s "$d/from-fifo" "$ref" || bad "$w: the FIFO's reader got $(wc -c <"$d/from-fifo") bytes, not the file's $(wc -c <"$ref")"
  [ -p "$d/fifo" ] || bad "$w replaced the FIFO"

  # a symbolic link: the target replaced, the link kept
  echo old >"$d/target"
  ln -s target "$d/link"
  "write_$w" "$d/link" || bad "$w through a link: $(cat "$tmp/err")"
  [ -L "$d/link" ] || bad "$w replaced the symbolic link with a file"
  cmp -s "$d/target" "$ref" || bad "$w: the link's target does not hold the output"

  # - is standard output
  (cd "$d" && "write_$w" - >"$d/stdout") || bad "$w -o -: $(cat "$tmp/err")"
  cmp -s "$d/stdout" "$ref" || bad "$w -o -: standard output differs from the file"
  [ -e "$d/-" ] && bad "$w -o -: wrote a file named '-'"

  # an existing file keeps its mode
  echo old >"$d/kept"; chmod 640 "$d/kept"
  "write_$w" "$d/kept" || bad "$w over an existing file: $(cat "$tmp/err")"
  [ "$(stat -c %a "$d/kept")" = 640 ] || bad "$w: mode $(stat -c %a "$d/kept"), was 640"
  cmp -s "$d/kept" "$ref" || bad "$w: the existing file does not hold the output"

  # a read-only folder (root writes anywhere: checked in the run as nobody)
  if [ "$(id -u)" != 0 ]; then
    mkdir "$d/ro"; chmod 555 "$d/ro"
    if "write_$w" "$d/ro/out"; then bad "$w into a read-only folder succeeded"; fi
    [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "ro/out.*Permission denied" "$tmp/err" ||
      bad "$w into a read-only folder: want one line naming ro/out, got: $(cat "$tmp/err")"
    [ -z "$(ls -A "$d/ro")" ] || bad "$w left $(ls -A "$d/ro") in the read-only folder"
    chmod 755 "$d/ro"
  fi
  ls -A "$d" | grep -q '\.tmp' && bad "$w left a temporary: $(ls -A "$d" | grep '\.tmp')"
done
[ $fail = 0 ] && echo "encode, embed, quantize: device, FIFO, link, -, mode kept${AS:+ ($AS)}$([ "$(id -u)" != 0 ] && echo ', read-only folder')"

# As root: everything again as an unprivileged user.
if [ "$(id -u)" = 0 ] && [ -z "${AS:-}" ]; then
  as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
  if ! command -v setpriv >/dev/null; then
    echo "SKIP as nobody: setpriv not found"
  elif ! "${as_nobody[@]}" test -x "$SEER" -a -x "$TOOLS/make_tiny_model" -a -r "$image" 2>/dev/null; then
    echo "SKIP as nobody: nobody cannot run $SEER or read the test files"
  else
    chmod 755 "$tmp"
    mkdir "$tmp/nobody" && chown nobody:nogroup "$tmp/nobody"
    TMPDIR=$tmp/nobody AS=nobody "${as_nobody[@]}" env HOME="$tmp/nobody" bash "$0" || fail=1
  fi
fi
exit $fail
