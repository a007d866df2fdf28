// Reading what the page drew: its screenshots (8-bit RGB/RGBA PNGs, what stb_image_write
// writes) decoded with node's zlib, and the layout JSON's grids, the same helpers as
// tests/ui/script_mode_test.py (ring_point, fill_point, close).
import { inflateSync } from 'node:zlib';

export class Png {
  constructor(bytes) {
    const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    if (!sig.every((b, i) => bytes[i] === b)) throw new Error('not a PNG');
    const idat = [];
    for (let pos = 8; pos < bytes.length;) {
      const length = bytes.readUInt32BE(pos);
      const kind = bytes.toString('latin1', pos + 4, pos + 8);
      const body = bytes.subarray(pos + 8, pos + 8 + length);
      if (kind === 'IHDR') {
        this.width = body.readUInt32BE(0);
        this.height = body.readUInt32BE(4);
        const depth = body[8], colour = body[9], interlace = body[12];
        if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
          throw new Error(`PNG of depth ${depth}, colour type ${colour}, interlace ${interlace}: not read here`);
        this.channels = colour === 2 ? 3 : 4;
      } else if (kind === 'IDAT') idat.push(body);
      pos += 12 + length;
    }
    this.rows = unfilter(inflateSync(Buffer.concat(idat)), this.width, this.height, this.channels);
  }

  pixel(x, y) {
    const o = Math.floor(x) * this.channels;
    const row = this.rows[Math.floor(y)];
    return [row[o], row[o + 1], row[o + 2]];
  }

  // Distinct RGB colours over the whole picture (a blank or one-colour canvas has 1).
  distinctColours(limit = 1 << 20) {
    const seen = new Set();
    for (const row of this.rows)
      for (let o = 0; o < row.length && seen.size < limit; o += this.channels)
        seen.add((row[o] << 16) | (row[o + 1] << 8) | row[o + 2]);
    return seen.size;
  }

  // Pixels within `tolerance` of `colour` in the rectangle [x0, x1) x [y0, y1).
  count(colour, x0, y0, x1, y1, tolerance = 30) {
    let n = 0;
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.height, Math.ceil(y1)); ++y)
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.width, Math.ceil(x1)); ++x)
        if (close(this.pixel(x, y), colour, tolerance)) ++n;
    return n;
  }
}

function unfilter(raw, width, height, channels) {
  const stride = width * channels, rows = [];
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; ++y) {
    const i = y * (1 + stride), filter = raw[i];
    const line = Uint8Array.from(raw.subarray(i + 1, i + 1 + stride));
    for (let x = 0; x < stride; ++x) {
      const a = x >= channels ? line[x - channels] : 0, b = prev[x], c = x >= channels ? prev[x - channels] : 0;
      let add = 0;
      if (filter === 1) add = a;
      else if (filter === 2) add = b;
      else if (filter === 3) add = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        add = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[x] = (line[x] + add) & 255;
    }
    rows.push(line);
    prev = line;
  }
  return rows;
}

export function hexRgb(text) {
  return [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16));
}

export function close(a, b, tolerance = 6) {
  return a.every((p, i) => Math.abs(p - b[i]) <= tolerance);
}

export function grid(layout, name) {
  const g = layout.grids.find((x) => x.name === name);
  if (!g) throw new Error(`no grid ${name} in the layout: ${layout.grids.map((x) => x.name)}`);
  return g;
}

// A pixel inside the highlight ring of a cell (between the outline and the fill).
export function ringPoint(g, row, col) {
  return [g.x + col * g.cellWidth + g.cellWidth / 2, g.y + row * g.cellHeight + g.outlinePx + g.highlightPx / 2];
}

// A pixel of a cell's fill, away from its ring and from the centre dot mark.
export function fillPoint(g, row, col) {
  return [g.x + (col + 0.3) * g.cellWidth, g.y + (row + 0.3) * g.cellHeight];
}

// The rectangle of a cell: [x0, y0, x1, y1].
export function cellRect(g, row, col) {
  const x0 = g.x + col * g.cellWidth, y0 = g.y + row * g.cellHeight;
  return [x0, y0, x0 + g.cellWidth, y0 + g.cellHeight];
}
