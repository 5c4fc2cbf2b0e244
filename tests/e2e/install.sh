#!/usr/bin/env bash
# make install into a staging DESTDIR, then the installed seer from another
# folder: the demo model answers headless (--demo finds PREFIX/share/seer),
# seer info reads the installed model, a theme loads from PREFIX/share/seer
# (the TUI in tmux), man -l renders the page; make uninstall leaves nothing.
set -u
SEER=${SEER:?SEER must point at the seer binary}
root=$(pwd)
tmp=$(mktemp -d); trap 'tmux -L seer-install kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
err() { echo "FAIL: $*"; fail=1; }
dest=$tmp/stage prefix=/opt/seer-test

make -s -C "$root" install DESTDIR="$dest" PREFIX="$prefix" INSTALL_BIN="$SEER" >"$tmp/make.log" 2>&1 ||
  { echo "FAIL: make install: $(tail -3 "$tmp/make.log")"; exit 1; }
bin=$dest$prefix/bin/seer
for f in bin/seer share/man/man1/seer.1 share/seer/themes/dark.theme share/seer/models/demo-llm.gguf \
  share/seer/models/demo-mmproj.gguf share/seer/images/demo.png; do
  [ -f "$dest$prefix/$f" ] || err "not installed: $f"
done

cd "$tmp" || exit 1 # another folder: nothing of the source tree around
answer=$("$bin" --demo -p "What colour is the circle?" -n 12 --temp 0 2>"$tmp/err") ||
  err "installed --demo exited $?: $(cat "$tmp/err")"
[ -n "$answer" ] || err "installed --demo gave no answer"
"$bin" info "$dest$prefix/share/seer/models/demo-llm.gguf" >"$tmp/info" 2>/dev/null || err "installed seer info"
grep -q '^kind *language model' "$tmp/info" || err "seer info of the installed model: $(head -3 "$tmp/info")"
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$dest$prefix/share/man/man1/seer.1" 2>/dev/null | grep -q 'seer --demo' || err "man -l of the installed page"
fi
# the TUI of the installed binary loads a theme from PREFIX/share/seer/themes
if command -v tmux >/dev/null 2>&1; then
  tmux -L seer-install new-session -d -x 100 -y 30 "'$bin' --demo --theme solarized --sixel off 2>$tmp/tui.err; sleep 5"
  for _ in $(seq 50); do
    screen=$(tmux -L seer-install capture-pane -p 2>/dev/null)
    grep -q "demo" <<<"$screen" && { sleep 0.5; screen=$(tmux -L seer-install capture-pane -p 2>/dev/null); break; }
    sleep 0.2
  done
  grep -qi "no theme\|theme.*not found\|cannot" <<<"$screen$(cat "$tmp/tui.err" 2>/dev/null)" && err "theme from share/seer: $screen"
  grep -q 'demo' <<<"$screen" || err "the installed TUI did not start: $screen"
  tmux -L seer-install kill-server 2>/dev/null
fi

cd "$root" || exit 1
make -s -C "$root" uninstall DESTDIR="$dest" PREFIX="$prefix" >"$tmp/make.log" 2>&1 || err "make uninstall: $(tail -3 "$tmp/make.log")"
left=$(find "$dest$prefix" -type f 2>/dev/null)
[ -z "$left" ] || err "make uninstall left: $left"
[ ! -d "$dest$prefix/share/seer" ] || err "make uninstall left the folder share/seer"
[ $fail = 0 ] && echo "installed, ran from another folder (--demo, info, man, TUI theme), uninstalled clean"
exit $fail
