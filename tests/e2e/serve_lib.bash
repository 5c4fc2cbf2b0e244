# shellcheck shell=bash
# Helpers of the seer serve tests: start a server on a free port of
# 127.0.0.1, wait until it listens, stop it. Needs $SEER and $tmp.

# serve_start NAME ARGS...: starts `seer serve ARGS --port 0`, sets
# ${NAME}_url and ${NAME}_pid; the server's stdout/stderr go to $tmp/NAME.out/.err.
serve_start() {
  local name=$1 port="" i pid; shift
  "$SEER" serve "$@" --port 0 >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  printf -v "${name}_pid" %s "$pid"
  for i in $(seq 100); do
    port=$(sed -n 's/^seer serve: listening on http:\/\/127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$tmp/$name.out")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "FAIL: seer serve $* did not start: $(cat "$tmp/$name.err")"
    return 1
  fi
  printf -v "${name}_url" %s "http://127.0.0.1:$port"
}

# serve_stop PID: SIGTERM, then the exit status (124 when still running after 10 s).
serve_stop() {
  local i
  kill -TERM "$1" 2>/dev/null
  for i in $(seq 100); do
    kill -0 "$1" 2>/dev/null || { wait "$1"; return $?; }
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null
  return 124
}

# status_of METHOD URL [CURL ARGS...]: prints "STATUS BODY".
status_of() {
  local method=$1 url=$2; shift 2
  curl -s -X "$method" -o "$tmp/body" -w '%{http_code}' "$url" "$@"
  printf ' %s' "$(head -c 400 "$tmp/body")"
}
