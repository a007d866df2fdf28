"""Reads a GIF the app exported, for the UI tests: its blocks without decoding (frame count,
size, sub-rectangles), and a pixel decoded on demand from its frame's LZW stream."""


class Gif:
    """A GIF's blocks, read without decoding (frame count, size, sub-rectangles); pixels are
    decoded on demand, each frame's LZW stream only as far as the pixel asked for."""

    def __init__(self, path):
        data = open(path, "rb").read()
        assert data[:6] in (b"GIF87a", b"GIF89a"), "not a GIF"
        self.width, self.height = int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
        flags, pos, palette = data[10], 13, None
        if flags & 0x80:
            n = 3 << ((flags & 7) + 1)
            palette = [tuple(data[pos + i:pos + i + 3]) for i in range(0, n, 3)]
            pos += n
        self.frames = []  # (x0, y0, w, h, palette, min_code, lzw stream)
        while pos < len(data):
            kind = data[pos]
            pos += 1
            if kind == 0x3B:
                break
            if kind == 0x21:  # an extension: skip its sub-blocks
                pos += 1
                while data[pos]:
                    pos += data[pos] + 1
                pos += 1
                continue
            assert kind == 0x2C, f"unexpected block {kind:#x}"
            x0, y0, w, h = (int.from_bytes(data[pos + i:pos + i + 2], "little") for i in (0, 2, 4, 6))
            f = data[pos + 8]
            pos += 9
            local = palette
            if f & 0x80:
                n = 3 << ((f & 7) + 1)
                local = [tuple(data[pos + i:pos + i + 3]) for i in range(0, n, 3)]
                pos += n
            min_code, pos = data[pos], pos + 1
            stream = bytearray()
            while data[pos]:
                stream += data[pos + 1:pos + 1 + data[pos]]
                pos += data[pos] + 1
            pos += 1
            self.frames.append((x0, y0, w, h, local, min_code, bytes(stream)))

    def pixel(self, frame, x, y):
        """Frame `frame` as shown: each frame draws its rectangle over the ones before."""
        x, y, colour = int(x), int(y), None
        for x0, y0, w, h, palette, min_code, stream in self.frames[:frame + 1]:
            if x0 <= x < x0 + w and y0 <= y < y0 + h:
                index = (y - y0) * w + (x - x0)
                colour = palette[lzw_decode(stream, min_code, index + 1)[index]]
        assert colour is not None, f"({x},{y}) never drawn by frame {frame}"
        return colour


def lzw_decode(stream, min_code, limit):
    """The GIF's LZW stream decoded up to `limit` pixel indices."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    out, bits, value, nbits = [], min_code + 1, 0, 0
    table, prev = None, None
    for byte in stream:
        value |= byte << nbits
        nbits += 8
        while nbits >= bits:
            code, value, nbits = value & ((1 << bits) - 1), value >> bits, nbits - bits
            if code == clear:
                table = [[i] for i in range(clear)] + [None, None]
                bits, prev = min_code + 1, None
                continue
            if code == end:
                return out
            if prev is None:
                entry = table[code]
            elif code < len(table):
                entry = table[code]
                table.append(prev + entry[:1])
            else:
                entry = prev + prev[:1]
                table.append(entry)
            out.extend(entry)
            if len(out) >= limit:
                return out
            prev = entry
            if len(table) == (1 << bits) and bits < 12:
                bits += 1
    return out
