#!/usr/bin/env python3
"""A small Hugging Face hub on 127.0.0.1 for the -hf tests: the three
requests llama.cpp and seer make (refs, tree, resolve, with HEAD and Range),
serving the repositories found under --root (ROOT/user/repo/<files>).

Every request is logged to --log ("METHOD PATH range=..."), so a test can
count downloads. Faults, for the tests of the client:
  --cut NAME:N      the first GET of NAME is cut (connection closed) after N bytes
  --stall NAME:N    every GET of NAME sends N bytes, then waits (for Ctrl-C tests)
  --corrupt NAME    NAME is served with one byte changed (its listed SHA-256 stays)
  --huge NAME       NAME is listed as 1 PB (no disk has room for it)
The chosen port is written to --port-file once the server listens."""
import argparse
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

LFS_POINTER_SIZE = 134


class Repo:
    def __init__(self, path):
        self.path = path
        self.files = sorted(os.path.relpath(os.path.join(d, f), path).replace(os.sep, "/")
                            for d, _, fs in os.walk(path) for f in fs)
        self.sha256, self.git_oid = {}, {}
        commit = hashlib.sha1()
        for name in self.files:
            data = open(os.path.join(path, name), "rb").read()
            self.sha256[name] = hashlib.sha256(data).hexdigest()
            self.git_oid[name] = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
            commit.update(name.encode() + self.sha256[name].encode())
        self.commit = commit.hexdigest()

    def size(self, name):
        return os.path.getsize(os.path.join(self.path, name))


class Hub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    opts = None
    gets = {}
    lock = threading.Lock()

    def log_message(self, fmt, *args):
        pass

    def record(self):
        with self.lock, open(self.opts.log, "a") as f:
            f.write("%s %s range=%s\n" % (self.command, self.path, self.headers.get("Range", "-")))

    def reply(self, status, body, ctype="application/json", head=False):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def repo(self, user, name):
        path = os.path.join(self.opts.root, user, name)
        return Repo(path) if user and name and os.path.isdir(path) else None

    def do_HEAD(self):
        self.handle_any(head=True)

    def do_GET(self):
        self.handle_any(head=False)

    def handle_any(self, head):
        self.record()
        url = urllib.parse.urlparse(self.path)
        parts = [urllib.parse.unquote(p) for p in url.path.split("/")[1:]]
        if self.opts.token and self.headers.get("Authorization") != "Bearer " + self.opts.token:
            return self.reply(401, {"error": "Invalid credentials"}, head=head)
        if len(parts) >= 5 and parts[:2] == ["api", "models"] and parts[4] == "refs":
            return self.refs(self.repo(parts[2], parts[3]), head)
        if len(parts) >= 6 and parts[:2] == ["api", "models"] and parts[4] == "tree":
            return self.tree(self.repo(parts[2], parts[3]), parts[5], head)
        if len(parts) >= 5 and parts[2] == "resolve":
            return self.resolve(self.repo(parts[0], parts[1]), parts[3], "/".join(parts[4:]), head)
        self.reply(404, {"error": "Not found"}, head=head)

    def refs(self, repo, head):
        if not repo:
            return self.reply(404, {"error": "Repository not found"}, head=head)
        self.reply(200, {"branches": [{"name": "main", "ref": "refs/heads/main", "targetCommit": repo.commit}],
                         "converts": [], "tags": []}, head=head)

    def tree(self, repo, commit, head):
        if not repo or commit != repo.commit:
            return self.reply(404, {"error": "Repository not found"}, head=head)
        items = []
        for name in repo.files:
            size = 10 ** 15 if name in self.opts.huge else repo.size(name)
            item = {"type": "file", "oid": repo.git_oid[name], "size": size, "path": name}
            if name.endswith(".gguf"):
                item["lfs"] = {"oid": repo.sha256[name], "size": size, "pointerSize": LFS_POINTER_SIZE}
                item["size"] = size
            items.append(item)
        dirs = sorted({n.rsplit("/", 1)[0] for n in repo.files if "/" in n})
        items += [{"type": "directory", "oid": "0" * 40, "size": 0, "path": d} for d in dirs]
        self.reply(200, items, head=head)

    def resolve(self, repo, commit, name, head):
        if not repo or commit not in (repo.commit, "main") or name not in repo.files:
            return self.reply(404, {"error": "Entry not found"}, head=head)
        data = open(os.path.join(repo.path, name), "rb").read()
        if name in self.opts.corrupt:
            data = data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 0xFF]) + data[len(data) // 2 + 1:]
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and rng.endswith("-"):
            start = int(rng[6:-1])
        if start > len(data):
            return self.reply(416, {"error": "Range not satisfiable"}, head=head)
        self.send_response(206 if rng else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data) - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"%s"' % repo.sha256[name])
        if rng:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        self.end_headers()
        if head:
            return
        body = data[start:]
        with self.lock:
            n_get = self.gets.get(name, 0)
            self.gets[name] = n_get + 1
        cut = self.opts.cut.get(name)
        stall = self.opts.stall.get(name)
        if cut is not None and n_get == 0:
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            return
        if stall is not None:
            self.wfile.write(body[:stall])
            self.wfile.flush()
            time.sleep(30)
            self.close_connection = True
            return
        self.wfile.write(body)


def name_count(spec):
    name, n = spec.rsplit(":", 1)
    return name, int(n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--token", default="")
    ap.add_argument("--cut", action="append", default=[], type=name_count)
    ap.add_argument("--stall", action="append", default=[], type=name_count)
    ap.add_argument("--corrupt", action="append", default=[])
    ap.add_argument("--huge", action="append", default=[])
    ap.add_argument("--lifetime", type=float, default=600, help="seconds before the server stops by itself")
    opts = ap.parse_args()
    opts.cut, opts.stall = dict(opts.cut), dict(opts.stall)
    Hub.opts = opts
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    server.daemon_threads = True
    threading.Timer(opts.lifetime, server.shutdown).start()
    with open(opts.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(opts.port_file + ".tmp", opts.port_file)
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
