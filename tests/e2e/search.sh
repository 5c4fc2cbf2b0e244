#!/usr/bin/env bash
# seer index / seer search with the bundled search model (assets/models/
# search-*.gguf, tools/embed-model) on scenes it never saw (another seed than
# training): recall@1 of the scenes' descriptions >= 80% through the real
# binaries, with and without multi-vectors; then incremental runs (unchanged,
# touched, removed images), interruptions (SIGINT, SIGKILL, a torn record:
# nothing kept is lost, nothing is done twice, no stray files) and the
# one-line errors (another model, not an index, bad arguments).
set -u
SEER=${SEER:?SEER must point at the seer binary}
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
M=${SEARCH_MODELS:-$root/assets/models}
PY=/usr/bin/python3
$PY -c 'import numpy, PIL' 2>/dev/null || { echo "SKIP: /usr/bin/python3 lacks numpy or PIL"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
model=(-m "$M/search-llm.gguf" --mmproj "$M/search-mmproj.gguf")

# Held-out scenes: seed 2026 (training draws from seed 1), unique descriptions.
$PY "$root/tools/embed-model/make_scenes.py" --out "$tmp/scenes" --n 40 --seed 2026 || { echo "FAIL: make_scenes"; exit 1; }

# recall@1: every description must find its own scene first.
recall() { # INDEX -> prints hits/total
  local hits=0 total=0 name text top
  while IFS=$'\t' read -r name text; do
    top=$("$SEER" search "$1" "$text" -k 1 -t 1 2>>"$tmp/search.err" | head -1)
    [ "$(basename "${top##* }")" = "$name" ] && hits=$((hits + 1))
    total=$((total + 1))
  done <"$tmp/scenes/queries.tsv"
  echo "$hits/$total"
}
"$SEER" index "$tmp/scenes" -o "$tmp/single.idx" "${model[@]}" -t 1 >"$tmp/out" 2>"$tmp/err" ||
  bad "seer index: $(cat "$tmp/err")"
grep -q "40 images (40 embedded" "$tmp/out" || bad "first index run: $(cat "$tmp/out")"
"$SEER" index "$tmp/scenes" -o "$tmp/multi.idx" "${model[@]}" --mv-proj "$M/search-mvproj.gguf" -t 1 >/dev/null \
  2>"$tmp/err" || bad "seer index --mv-proj: $(cat "$tmp/err")"
for kind in single multi; do
  r=$(recall "$tmp/$kind.idx")
  echo "recall@1 ($kind vectors): $r"
  [ $((${r%/*} * 100)) -ge $((80 * ${r#*/})) ] || bad "recall@1 with $kind vectors is $r, below 80%"
done
[ -s "$tmp/search.err" ] && bad "seer search wrote to stderr: $(head -3 "$tmp/search.err")"

# The output: score and absolute path, best first, -k lines; no thumbnails off a terminal.
"$SEER" search "$tmp/multi.idx" "A red circle." -k 3 -t 1 >"$tmp/top3" 2>"$tmp/err" || bad "search: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/top3")" = 3 ] && grep -qE "^[0-9.-]+  $tmp/scenes/scene-[0-9]{3}\.png$" "$tmp/top3" || bad "search output: $(cat "$tmp/top3")"
sort -k1,1gr "$tmp/top3" | cmp -s - "$tmp/top3" || bad "hits are not best first: $(cat "$tmp/top3")"
"$SEER" search "$tmp/multi.idx" "A red circle." -k 2 --thumbs blocks -t 1 >"$tmp/thumbs" 2>&1
grep -q $'\033\\[38;2;' "$tmp/thumbs" || bad "--thumbs blocks printed no block-glyph thumbnails"

# A symbolic link back up the tree is not followed again (each image is
# listed once), and a subfolder that cannot be read is skipped with a line
# on stderr, not the end of the run (as root every folder can be read).
mkdir -p "$tmp/looped/sub"
cp "$tmp/scenes/scene-000.png" "$tmp/scenes/scene-001.png" "$tmp/looped/sub/"
ln -s .. "$tmp/looped/sub/up"
[ "$(id -u)" = 0 ] || { mkdir "$tmp/looped/locked"; chmod 000 "$tmp/looped/locked"; }
"$SEER" index "$tmp/looped" -o "$tmp/looped.idx" "${model[@]}" -t 1 >"$tmp/out" 2>"$tmp/err" ||
  bad "index of a folder with a loop: $(cat "$tmp/err")"
grep -q "looped.idx: 2 images (2 embedded" "$tmp/out" || bad "a link back up the tree listed images again: $(cat "$tmp/out")"
if [ "$(id -u)" != 0 ]; then
  grep -q "skipped $tmp/looped/locked" "$tmp/err" || bad "the unreadable folder was not named: $(cat "$tmp/err")"
  chmod 700 "$tmp/looped/locked"
fi

# Incremental: nothing changed -> nothing embedded; a touched and a removed image.
"$SEER" index "$tmp/scenes" -o "$tmp/single.idx" -t 1 >"$tmp/out" 2>&1 &&
  grep -q "40 images (0 embedded, of which 0 changed; 0 removed; 40 unchanged" "$tmp/out" ||
  bad "second run (nothing changed): $(cat "$tmp/out")"
touch -d '2001-01-01' "$tmp/scenes/scene-003.png"
rm "$tmp/scenes/scene-005.png"
"$SEER" index "$tmp/scenes" -o "$tmp/single.idx" -t 1 >"$tmp/out" 2>&1 &&
  grep -q "39 images (1 embedded, of which 1 changed; 1 removed; 38 unchanged" "$tmp/out" ||
  bad "third run (one touched, one removed): $(cat "$tmp/out")"
"$SEER" search "$tmp/single.idx" "$(grep scene-005 "$tmp/scenes/queries.tsv" | cut -f2)" -k 40 -t 1 | grep -q scene-005 &&
  bad "a removed image is still found"

# Many updates: once most records are dead the file is rewritten with the
# live ones (temporary + rename), as small as a fresh index of the folder.
for day in 02 03 04; do  # 42 + 3 × 39 records: more than twice the live ones + 64
  touch -d "2001-01-$day" "$tmp"/scenes/*.png
  "$SEER" index "$tmp/scenes" -o "$tmp/single.idx" -t 1 >/dev/null 2>&1 || bad "update run $day"
done
"$SEER" index "$tmp/scenes" -o "$tmp/fresh.idx" "${model[@]}" -t 1 >/dev/null 2>&1
[ "$(stat -c %s "$tmp/single.idx")" = "$(stat -c %s "$tmp/fresh.idx")" ] ||
  bad "not compacted: $(stat -c %s "$tmp/single.idx") bytes, a fresh index $(stat -c %s "$tmp/fresh.idx")"
ls "$tmp" | grep -q "single.idx.tmp" && bad "compaction left a temporary file"
"$SEER" index "$tmp/scenes" -o "$tmp/single.idx" -t 1 2>&1 | grep -q "39 images (0 embedded" ||
  bad "the compacted index lost entries"

# Interrupted runs: SIGINT and SIGKILL at some moment, then a run that must
# embed exactly what was not kept. One image per pass, one thread: slow
# enough to land in the middle.
mkdir "$tmp/many"
for i in 0 1 2; do for f in "$tmp"/scenes/*.png; do cp "$f" "$tmp/many/$i-$(basename "$f")"; done; done
n_many=$(ls "$tmp/many" | wc -l)
embedded_by_rerun() { "$SEER" index "$tmp/many" -o "$1" -t 1 2>&1 | sed -nE 's/.*\(([0-9]+) embedded.*/\1/p'; }
for sig in INT KILL; do
  partial=0
  for delay in 0.4 0.8 1.5 3; do
    rm -f "$tmp/int.idx"
    "$SEER" index "$tmp/many" -o "$tmp/int.idx" "${model[@]}" --batch 1 -t 1 >/dev/null 2>"$tmp/int.err" &
    pid=$!
    sleep "$delay"
    kill -s "$sig" "$pid" 2>/dev/null
    { wait "$pid"; } 2>/dev/null; st=$?
    [ -f "$tmp/int.idx" ] || continue
    before=$(cp "$tmp/int.idx" "$tmp/int.copy" && "$SEER" search "$tmp/int.copy" x -k 1000 -t 1 2>/dev/null | wc -l)
    if [ "$before" -gt 0 ] && [ "$before" -lt "$n_many" ]; then partial=1; break; fi
  done
  [ "$partial" = 1 ] || { echo "note: no partial index after SIG$sig (machine too fast or slow)"; continue; }
  [ "$sig" = INT ] && { [ "$st" = 130 ] && grep -q "interrupted: [0-9]* of $n_many images embedded and kept" \
    "$tmp/int.err" || bad "SIGINT: status $st, $(cat "$tmp/int.err")"; }
  ls "$tmp" | grep -q "int.idx.tmp" && bad "SIG$sig left a temporary file"
  again=$(embedded_by_rerun "$tmp/int.idx")
  [ "$((before + again))" = "$n_many" ] ||
    bad "after SIG$sig: $before kept + $again embedded again != $n_many images"
  echo "SIG$sig after $delay s: $before of $n_many kept, $again embedded by the next run"
done
# A record cut short (a write interrupted half-way): the next run drops it and embeds that one image again.
cp "$tmp/single.idx" "$tmp/torn.idx"
truncate -s -7 "$tmp/torn.idx"
got=$("$SEER" search "$tmp/torn.idx" x -k 1000 -t 1 2>/dev/null | wc -l)
[ "$got" = 38 ] || bad "a torn last record: $got images readable (want 38)"
"$SEER" index "$tmp/scenes" -o "$tmp/torn.idx" -t 1 >"$tmp/out" 2>&1 &&
  grep -q "39 images (1 embedded, of which 0 changed; 0 removed; 38 unchanged" "$tmp/out" ||
  bad "after a torn record: $(cat "$tmp/out")"
"$SEER" index "$tmp/scenes" -o "$tmp/torn.idx" -t 1 >"$tmp/out" 2>&1 &&
  grep -q "39 images (0 embedded" "$tmp/out" || bad "after repairing a torn record: $(cat "$tmp/out")"

# Errors: one line each.
expect_error() { # status pattern command…
  local want=$1 pat=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local st=$?
  if [ "$st" != "$want" ] || ! grep -q -- "$pat" "$tmp/err" || [ "$(wc -l <"$tmp/err")" != 1 ]; then
    bad "$* -> status $st, stderr: $(cat "$tmp/err")"
  fi
}
expect_error 1 "was made with the model 'seer search demo embedder'" \
  "$SEER" search "$tmp/single.idx" "a red circle" -m "$M/demo-llm.gguf"
expect_error 1 "was made with the model" \
  "$SEER" index "$tmp/scenes" -o "$tmp/single.idx" -m "$M/demo-llm.gguf" --mmproj "$M/demo-mmproj.gguf"
expect_error 1 "not a seer search index" "$SEER" search "$M/search-llm.gguf" "a red circle"
expect_error 1 "cannot open" "$SEER" search "$tmp/missing.idx" "a red circle"
expect_error 1 "indexes $tmp/scenes, not" "$SEER" index "$tmp/many" -o "$tmp/single.idx"
expect_error 1 "not a directory" "$SEER" index "$M/search-llm.gguf" -o "$tmp/x.idx" "${model[@]}"
expect_error 2 "needs -m MODEL.gguf and --mmproj" "$SEER" index "$tmp/scenes" -o "$tmp/new.idx"
expect_error 2 "-o INDEX is required" "$SEER" index "$tmp/scenes"
expect_error 2 "what to look for" "$SEER" search "$tmp/single.idx"
expect_error 2 "-k takes" "$SEER" search "$tmp/single.idx" "x" -k 0
[ -e "$tmp/new.idx" ] && bad "a refused run created its index"
exit $fail
