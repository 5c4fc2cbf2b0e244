#!/usr/bin/env python3
"""Prints one line per tensor of a GGUF file: name, type id, SHA-256 of its
bytes (sorted by name), so two quantizers' outputs can be compared tensor by
tensor whatever their metadata or tensor order."""
import hashlib
import struct
import sys

# bytes per block and elements per block, by ggml type id
BLOCKS = {0: (4, 1), 1: (2, 1), 2: (18, 32), 3: (20, 32), 6: (22, 32), 7: (24, 32), 8: (34, 32),
          10: (84, 256), 11: (110, 256), 12: (144, 256), 13: (176, 256), 14: (210, 256), 30: (2, 1)}
SCALARS = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


def main(path):
    data = open(path, "rb").read()
    pos = 0

    def take(fmt):
        nonlocal pos
        vals = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return vals if len(vals) > 1 else vals[0]

    def string():
        nonlocal pos
        n = take("Q")
        pos += n
        return data[pos - n:pos].decode("utf-8", "replace")

    def skip_value(t):
        nonlocal pos
        if t == 8:
            string()
        elif t == 9:
            at, n = take("I"), take("Q")
            for _ in range(n):
                skip_value(at)
        else:
            pos += SCALARS[t]

    assert data[:4] == b"GGUF", "not a GGUF file"
    pos = 4
    _, n_tensors, n_kv = take("I"), take("Q"), take("Q")
    alignment = 32
    for _ in range(n_kv):
        key, t = string(), take("I")
        if key == "general.alignment":
            alignment = struct.unpack_from("<I", data, pos)[0]
        skip_value(t)
    tensors = []
    for _ in range(n_tensors):
        name, nd = string(), take("I")
        ne = [take("Q") for _ in range(nd)]
        t, off = take("I"), take("Q")
        tensors.append((name, ne, t, off))
    base = (pos + alignment - 1) // alignment * alignment
    for name, ne, t, off in sorted(tensors):
        n = 1
        for d in ne:
            n *= d
        bb, bs = BLOCKS[t]
        start = base + off
        print(name, t, hashlib.sha256(data[start:start + n // bs * bb]).hexdigest())


if __name__ == "__main__":
    main(sys.argv[1])
