#!/usr/bin/env bash
# docs/seer.1 and the --help texts name the same long options: the chat
# options against the page's OPTIONS section, each command's against its
# "seer COMMAND" section; every --help has an example line. The page renders
# with man(1) without warnings.
set -u
SEER=${SEER:?SEER must point at the seer binary}
page=docs/seer.1
fail=0
err() { echo "FAIL: $*"; fail=1; }
[ -f "$page" ] || { echo "FAIL: $page missing"; exit 1; }

long_opts() { grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }
# the troff source between two section headings, with \- as -
section() { # START_REGEX END_REGEX
  sed 's/\\-/-/g' "$page" | awk -v s="$1" -v e="$2" '$0 ~ s {on=1; next} on && $0 ~ e {on=0} on'
}
compare() { # NAME HELP_OPTIONS PAGE_OPTIONS
  local only_help only_page
  only_help=$(comm -23 <(echo "$2") <(echo "$3") | tr '\n' ' ')
  only_page=$(comm -13 <(echo "$2") <(echo "$3") | tr '\n' ' ')
  [ -z "${only_help// /}" ] || err "$1: in --help but not in $page: $only_help"
  [ -z "${only_page// /}" ] || err "$1: in $page but not in --help: $only_page"
}

compare "seer" "$("$SEER" --help 2>&1 | long_opts)" "$(section '^\.SH OPTIONS' '^\.SH ' | long_opts)"
for cmd in info tokenize encode embed index search ocr serve quantize bench; do
  compare "seer $cmd" "$("$SEER" "$cmd" --help 2>&1 | long_opts)" \
    "$(section "^\\.SS \"seer $cmd\"" '^\.S[SH] ' | long_opts)"
done

# every --help ends with an example line
for cmd in "" info tokenize encode embed index search ocr serve quantize bench; do
  # shellcheck disable=SC2086
  "$SEER" $cmd --help 2>&1 | grep -q "^example: seer $cmd" || err "seer $cmd --help has no example line"
done

if command -v man >/dev/null 2>&1; then
  out=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  [ -z "$out" ] || err "man reports: $out"
  MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q -- '--demo' || err "man -l shows no --demo"
else
  echo "SKIP: man(1) not installed: the page's rendering is not checked"
fi
[ $fail = 0 ] && echo "docs/seer.1 names every option of seer --help and of each command's --help"
exit $fail
