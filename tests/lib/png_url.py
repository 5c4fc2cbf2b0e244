"""A PNG as a data: URL, with the standard library only (the serve tests
and tools/serve_images.sh send pictures to seer serve without numpy/PIL)."""
import base64
import struct
import zlib


def png_data_url(w, h, px):
    """An 8-bit RGB PNG of w x h whose pixel (x, y) is px(x, y): 3 bytes."""
    rows = b"".join(b"\0" + b"".join(px(x, y) for x in range(w)) for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    return "data:image/png;base64," + base64.b64encode(raw).decode()


def seeded_png_data_url(side, seed):
    """A side x side gradient that differs for every seed (each request's
    own picture, so that no server answers from a cached encoding)."""
    return png_data_url(side, side, lambda x, y: bytes(((x * 3 + seed * 7) % 256, (y * 5 + seed * 11) % 256,
                                                        (x + y + seed) % 256)))
