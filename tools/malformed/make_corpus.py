#!/usr/bin/env python3
"""Writes the malformed-input corpus in tests/malformed/: broken GGUF files and
broken images, plus expected.tsv (file, how to open it, exit code, the error
text that must appear). Deterministic; rerun after changing it and commit the
output. GGUF bytes are encoded here from the format description; images come
from a valid PNG/JPEG/GIF/BMP encoded here and then damaged."""
import os, struct, zlib
# Error texts use the multiplication sign, as seer prints sizes (e.g. 100000×100000).

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'malformed')
rows = []

def put(name, data, kind, code, expect):
    path = os.path.join(OUT, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)
    rows.append((name, kind, str(code), expect))

# ---- GGUF ----
T_U32, T_I32, T_F32, T_BOOL, T_STR, T_ARR, T_U64 = 4, 5, 6, 7, 8, 9, 10

def s(x):
    b = x.encode() if isinstance(x, str) else x
    return struct.pack('<Q', len(b)) + b

def kv(key, t, payload):
    return s(key) + struct.pack('<I', t) + payload

def tinfo(name, dims, typ, off):
    return s(name) + struct.pack('<I', len(dims)) + b''.join(struct.pack('<Q', d) for d in dims) + \
        struct.pack('<I', typ) + struct.pack('<Q', off)

def gguf(kvs, tinfos, data=b'', version=3, align=32, n_kv=None, n_t=None, magic=b'GGUF'):
    head = magic + struct.pack('<I', version) + struct.pack('<QQ', len(tinfos) if n_t is None else n_t,
                                                            len(kvs) if n_kv is None else n_kv)
    body = head + b''.join(kvs) + b''.join(tinfos)
    body += b'\0' * ((-len(body)) % align)
    return body + data

ARCH = kv('general.architecture', T_STR, s('llama'))
NAME = kv('general.name', T_STR, s('malformed test'))
good_kvs = [ARCH, NAME, kv('llama.block_count', T_U32, struct.pack('<I', 1))]
good_t = [tinfo('token_embd.weight', [8, 4], 0, 0), tinfo('output_norm.weight', [8], 0, 128)]
good_data = b'\0' * (128 + 32)
good = gguf(good_kvs, good_t, good_data)

G = 'info'
put('gguf/empty.gguf', b'', G, 1, 'empty')
put('gguf/bad-magic.gguf', b'GGML' + good[4:], G, 1, 'not a GGUF file')
put('gguf/version-1.gguf', gguf(good_kvs, good_t, good_data, version=1), G, 1, 'version 1')
put('gguf/version-99.gguf', gguf(good_kvs, good_t, good_data, version=99), G, 1, 'version 99')
header_len = len(good) - len(good_data)
for cut in [3, 7, 15, 23, 30, 45, 60, 90, header_len - 40, header_len - 10, header_len + 20, len(good) - 1]:
    put('gguf/truncated-at-%d.gguf' % cut, good[:cut], G, 1, 'truncated' if cut < header_len - 8 else 'past the end')
put('gguf/huge-kv-count.gguf', gguf(good_kvs, good_t, good_data, n_kv=1 << 60), G, 1, 'metadata')
put('gguf/huge-tensor-count.gguf', gguf(good_kvs, good_t, good_data, n_t=1 << 60), G, 1, 'tensor')
put('gguf/key-length-past-eof.gguf',
    gguf([struct.pack('<Q', 1 << 40) + b'general'], [], b''), G, 1, 'truncated')
put('gguf/string-length-past-eof.gguf',
    gguf([kv('general.name', T_STR, struct.pack('<Q', 1 << 33) + b'abc')], [], b''), G, 1, 'general.name')
put('gguf/unknown-value-type.gguf', gguf([kv('general.weird', 77, b'\0' * 8)], [], b''), G, 1, 'general.weird')
put('gguf/huge-array.gguf',
    gguf([kv('tokenizer.ggml.scores', T_ARR, struct.pack('<IQ', T_F32, 1 << 58))], [], b''), G, 1,
    'tokenizer.ggml.scores')
put('gguf/string-array-past-eof.gguf',
    gguf([kv('tokenizer.ggml.tokens', T_ARR, struct.pack('<IQ', T_STR, 3) + s('a') + struct.pack('<Q', 999))],
         [], b''), G, 1, 'tokenizer.ggml.tokens')
put('gguf/duplicate-key.gguf', gguf(good_kvs + [NAME], good_t, good_data), G, 1, 'general.name')
put('gguf/duplicate-tensor.gguf', gguf(good_kvs, good_t + [tinfo('output_norm.weight', [8], 0, 128)], good_data),
    G, 1, 'output_norm.weight')
put('gguf/five-dims.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 4, 1, 1, 1], 0, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/overflowing-dims.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [1 << 62, 1 << 62], 0, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/huge-dim.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [1 << 40, 1 << 20], 0, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/unknown-tensor-type.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 4], 99, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/removed-tensor-type.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [32, 4], 4, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/offset-past-eof.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 4], 0, 1 << 30)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/offset-overflow.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 4], 0, (1 << 64) - 32)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/misaligned-offset.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 4], 0, 3)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/data-past-eof.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [8, 8], 0, 64)], b'\0' * 96),
    G, 1, 'token_embd.weight')
put('gguf/partial-block.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [20, 4], 8, 0)], good_data),
    G, 1, 'token_embd.weight')
put('gguf/bad-alignment.gguf',
    gguf(good_kvs + [kv('general.alignment', T_U32, struct.pack('<I', 3))], [], b''), G, 1, 'general.alignment')
put('gguf/zero-alignment.gguf',
    gguf(good_kvs + [kv('general.alignment', T_U32, struct.pack('<I', 0))], [], b''), G, 1, 'general.alignment')
put('gguf/nested-array.gguf',
    gguf([kv('general.nested', T_ARR, struct.pack('<IQ', T_ARR, 1) + struct.pack('<IQ', T_U32, 1) + b'\1\0\0\0')],
         [], b''), G, 1, 'general.nested')
put('gguf/bad-bool.gguf', gguf([kv('general.flag', T_BOOL, b'\x07')], [], b''), G, 1, 'general.flag')
# Valid containers that are not usable models: the model loader names the problem.
M = 'model'
put('gguf/unknown-architecture.gguf',
    gguf([kv('general.architecture', T_STR, s('mamba9'))], good_t, good_data), M, 1, 'mamba9')
put('gguf/no-architecture.gguf', gguf([NAME], good_t, good_data), M, 1, 'general.architecture')
put('gguf/missing-tensors.gguf', good, M, 1, 'missing')
put('gguf/zero-sized-tensor.gguf', gguf(good_kvs, [tinfo('token_embd.weight', [0, 4], 0, 0)], good_data),
    M, 1, 'token_embd.weight')
P = 'mmproj'
put('gguf/unsupported-projector.gguf',
    gguf([kv('general.architecture', T_STR, s('clip')), kv('clip.projector_type', T_STR, s('cogvlm')),
          kv('clip.has_vision_encoder', T_BOOL, b'\1')], [], b''), P, 1, "'cogvlm'")

# ---- images ----
def png(w, h, rows_rgb=None, color_type=2, depth=8):
    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    raw = rows_rgb if rows_rgb is not None else b''.join(
        b'\0' + bytes(v for x in range(w) for v in (x * 40 % 256, y * 60 % 256, 90)) for y in range(h))
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, color_type, 0, 0, 0)) + \
        chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')

def png_header_only(w, h):
    return png(1, 1)[:8] + struct.pack('>I', 13) + b'IHDR' + struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0) + b'\0' * 4

good_png = png(6, 5)
I = 'image'
put('image/empty.png', b'', I, 1, 'empty')
put('image/text.jpg', b'this is not a picture at all, just some words\n' * 4, I, 1, 'not an image')
put('image/html.png', b'<!DOCTYPE html><html><body>404 Not Found</body></html>\n', I, 1, 'not an image')
put('image/gguf-named.png', good[:200], I, 1, 'not an image')
for cut in [8, 20, 33, len(good_png) - 20]:
    put('image/truncated-%d.png' % cut, good_png[:cut], I, 1, 'truncated-%d.png' % cut)
put('image/zero-size.png', png_header_only(0, 0), I, 1, '0×0')
put('image/huge-100000x100000.png', png_header_only(100000, 100000), I, 1, '100000×100000')
put('image/wide-1000000x1.png', png_header_only(1000000, 70), I, 1, '1000000×70')
corrupt = bytearray(good_png)
idat = corrupt.find(b'IDAT') + 4
for i in range(idat, idat + 12):
    corrupt[i] ^= 0x5A
put('image/corrupt-idat.png', bytes(corrupt), I, 1, 'corrupt-idat.png')
bmp_head = b'BM' + struct.pack('<IHHI', 54, 0, 0, 54) + struct.pack('<IiiHHIIiiII', 40, 90000, 90000, 1, 24, 0, 0,
                                                                    2835, 2835, 0, 0)
put('image/huge-header.bmp', bmp_head, I, 1, '90000×90000')
put('image/truncated.gif', b'GIF89a\x10\x00\x10\x00\x80\x00\x00', I, 1, 'truncated.gif')
# A JPEG: SOI, a bogus quantization segment, then garbage; and one with only SOI.
put('image/soi-only.jpg', b'\xff\xd8', I, 1, 'soi-only.jpg')
put('image/garbage-after-soi.jpg', b'\xff\xd8\xff\xdb\x00\x43\x00' + bytes(range(64)) + b'\xff\xc0\x00\x11\x08'
    + b'\x00\x10\x00\x10\x03' + b'\x01\x22\x00' * 3 + b'\xde\xad\xbe\xef' * 8, I, 1, 'garbage-after-soi.jpg')
put('image/ppm-huge.ppm', b'P6\n200000 300000\n255\n' + b'\0' * 30, I, 1, '200000×300000')
put('image/ppm-truncated.ppm', b'P6\n64 64\n255\n' + b'\x80' * 100, I, 1, 'ppm-truncated.ppm')

with open(os.path.join(OUT, 'expected.tsv'), 'w') as f:
    f.write('# file\thow it is opened (info: seer info; model: seer -m; mmproj: seer encode --mmproj; '
            'image: seer encode --image)\texit code\ttext the one-line error must contain\n')
    for r in rows:
        f.write('\t'.join(r) + '\n')
print('%d files' % len(rows))
