# SPDX-License-Identifier: BSD-3-Clause
"""A PNG decoder in the standard library alone (struct, zlib), for the tests of apps/spy.

read_png(path) -> Image with width, height and rgb (rows of (r, g, b) tuples). It checks the
signature, every chunk's CRC, the IHDR fields, the chunk order (IHDR first, IDAT consecutive,
IEND last), inflates the IDAT stream and undoes all five row filters (None, Sub, Up, Average,
Paeth). Bit depth 8, colour types grey (0), RGB (2), palette (3), grey+alpha (4), RGBA (6); alpha
is dropped. Interlaced images and other depths raise PngError: apps/spy writes none of them.
"""

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class PngError(Exception):
    pass


class Image:
    def __init__(self, width, height, rgb):
        self.width, self.height, self.rgb = width, height, rgb

    def pixel(self, x, y):
        return self.rgb[y][x]


def chunks(data):
    """The (type, body) chunks after the signature, CRCs checked."""
    if data[:8] != SIGNATURE:
        raise PngError("bad signature %r" % data[:8])
    pos, out = 8, []
    while pos < len(data):
        if pos + 12 > len(data):
            raise PngError("truncated chunk header at %d" % pos)
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            raise PngError("truncated %r chunk" % kind)
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if crc != zlib.crc32(kind + body) & 0xFFFFFFFF:
            raise PngError("bad CRC in %r chunk" % kind)
        out.append((kind, body))
        pos += 12 + length
    return out


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    """The scanlines with their filters undone (bpp: bytes per pixel)."""
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise PngError("image data is %d bytes, expected %d" % (len(raw), height * (stride + 1)))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 0:  # None: the bytes as they are (the common case, done without the loop)
            rows.append(line)
            prev = line
            continue
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 0:
                pred = 0
            elif kind == 1:
                pred = a
            elif kind == 2:
                pred = b
            elif kind == 3:
                pred = (a + b) // 2
            elif kind == 4:
                pred = paeth(a, b, c)
            else:
                raise PngError("row %d: unknown filter type %d" % (y, kind))
            line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return rows


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = chunks(data)
    kinds = [k for k, _ in parts]
    if not kinds or kinds[0] != b"IHDR" or kinds[-1] != b"IEND" or kinds.count(b"IEND") != 1:
        raise PngError("chunk order %r" % kinds)
    idat = [i for i, k in enumerate(kinds) if k == b"IDAT"]
    if not idat or idat != list(range(idat[0], idat[-1] + 1)):
        raise PngError("IDAT chunks missing or not consecutive: %r" % kinds)
    ihdr = parts[0][1]
    if len(ihdr) != 13:
        raise PngError("IHDR of %d bytes" % len(ihdr))
    width, height, depth, color, compression, filtering, interlace = struct.unpack(">IIBBBBB", ihdr)
    if width == 0 or height == 0 or width > 2**31 - 1 or height > 2**31 - 1:
        raise PngError("bad size %dx%d" % (width, height))
    if depth != 8 or color not in CHANNELS:
        raise PngError("unsupported depth %d / colour type %d" % (depth, color))
    if compression != 0 or filtering != 0 or interlace != 0:
        raise PngError("unsupported compression/filter/interlace %d/%d/%d"
                       % (compression, filtering, interlace))
    raw = zlib.decompress(b"".join(parts[i][1] for i in idat))
    n = CHANNELS[color]
    lines = unfilter(raw, width, height, n)
    palette = None
    if color == 3:
        plte = [b for k, b in parts if k == b"PLTE"]
        if not plte or len(plte[0]) % 3:
            raise PngError("palette image without a valid PLTE")
        palette = [tuple(plte[0][i:i + 3]) for i in range(0, len(plte[0]), 3)]
    rgb = []
    for line in lines:
        if color == 2 or color == 6:
            row = [tuple(line[x * n:x * n + 3]) for x in range(width)]
        elif color == 3:
            row = [palette[line[x]] for x in range(width)]
        else:
            row = [(line[x * n],) * 3 for x in range(width)]
        rgb.append(row)
    return Image(width, height, rgb)


def write_png(path, width, height, rgb, filters):
    """A test encoder: RGB, 8 bits, row y filtered with filters[y % len(filters)] (0..4), to check
    that read_png undoes every filter."""
    bpp, raw, prev = 3, bytearray(), bytearray(width * 3)
    for y in range(height):
        line = bytearray(v for px in rgb[y] for v in px)
        kind = filters[y % len(filters)]
        out = bytearray()
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((line[i] - pred) & 0xFF)
        raw += bytes([kind]) + out
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw)))
                + chunk(b"IEND", b""))
