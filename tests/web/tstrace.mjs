// Comparing two .tstrace files (app/core/files/trace_file.h has the format) section by section
// and event by event. Everything a launch determines must be equal byte for byte: the config
// (CONF, TILE), the inputs and the result (MATM, MATN, MATP), every 32-byte event (TRCE) and the
// emulator's outcome (OUTC). Only HOST differs by where the file was written (the tool version
// and the wall time; the backend and device names are compared as strings). Headers and the
// END checksum are checked by the native reader instead (`tilescope-cli open`).

const EVENT_BYTES = 32;
const OPS = ['none', 'load_m', 'load_n', 'read_m', 'read_n', 'barrier', 'store_p', 'copy_m', 'copy_n',
             'mbarrier_init', 'mbarrier_arrive', 'mbarrier_wait'];

// {TAG: Buffer payload} of a trace file; throws on a malformed one (the native reader says more).
export function sections(bytes, name) {
  if (bytes.toString('latin1', 0, 8) !== 'TSCTRACE') throw new Error(`${name}: not a .tstrace file`);
  const out = { version: bytes.readUInt32LE(8) };
  for (let pos = 16; pos < bytes.length;) {
    if (pos + 12 > bytes.length) throw new Error(`${name}: a section header is cut at byte ${pos}`);
    const tag = bytes.toString('latin1', pos, pos + 4);
    const length = Number(bytes.readBigUInt64LE(pos + 4));
    if (pos + 12 + length > bytes.length) throw new Error(`${name}: section ${tag} at byte ${pos} runs past the end`);
    out[tag] = bytes.subarray(pos + 12, pos + 12 + length);
    pos += 12 + length;
  }
  return out;
}

// One event's fields, as kernels/trace/trace_event.h lays them out.
export function decodeEvent(b, o = 0) {
  return {
    op: OPS[b[o]] ?? b[o], flags: b[o + 1], line: b.readUInt16LE(o + 2),
    block: [b.readUInt16LE(o + 4), b.readUInt16LE(o + 6)], thread: [b.readUInt16LE(o + 8), b.readUInt16LE(o + 10)],
    phase: b.readInt16LE(o + 12), k: b.readInt16LE(o + 14),
    global: [b.readInt32LE(o + 16), b.readInt32LE(o + 20)], shared: [b.readInt16LE(o + 24), b.readInt16LE(o + 26)],
    value: b.readFloatLE(o + 28),
  };
}

function hostStrings(payload) {
  const strings = [];
  let pos = 0;
  for (let i = 0; i < 2; ++i) {  // backend, device (then the tool version and wall seconds)
    const n = payload.readUInt32LE(pos);
    strings.push(payload.toString('utf8', pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  return { backend: strings[0], device: strings[1] };
}

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; ++i) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

// The differences between trace files `a` and `b` (Buffers) in words, [] when they record the
// same launch. `names`: how the messages call the two files.
export function compareTraces(a, b, names = ['first', 'second']) {
  const [sa, sb] = [sections(a, names[0]), sections(b, names[1])];
  const problems = [];
  if (sa.version !== sb.version) problems.push(`format version ${sa.version} vs ${sb.version}`);
  for (const tag of ['CONF', 'TILE', 'MATM', 'MATN', 'MATP', 'OUTC']) {
    if (!sa[tag] !== !sb[tag]) problems.push(`section ${tag}: only in the ${sa[tag] ? names[0] : names[1]}`);
    else if (sa[tag] && !sa[tag].equals(sb[tag]))
      problems.push(`section ${tag} differs from byte ${firstDifference(sa[tag], sb[tag])} of its payload`);
  }
  const [ha, hb] = [hostStrings(sa.HOST), hostStrings(sb.HOST)];
  if (ha.backend !== hb.backend || ha.device !== hb.device)
    problems.push(`recorded on ${ha.backend} (${ha.device}) vs ${hb.backend} (${hb.device})`);
  if (!sa.TRCE || !sb.TRCE) {
    problems.push(`no events (TRCE) in the ${!sa.TRCE ? names[0] : names[1]}`);
    return problems;
  }
  const [ca, cb] = [Number(sa.TRCE.readBigUInt64LE(0)), Number(sb.TRCE.readBigUInt64LE(0))];
  if (ca !== cb) problems.push(`${ca} events vs ${cb}`);
  const [ea, eb] = [sa.TRCE.subarray(8), sb.TRCE.subarray(8)];
  let differing = 0, first = -1;
  for (let i = 0; i < Math.min(ca, cb); ++i) {
    const o = i * EVENT_BYTES;
    if (ea.compare(eb, o, o + EVENT_BYTES, o, o + EVENT_BYTES) !== 0) {
      if (first < 0) first = i;
      ++differing;
    }
  }
  if (differing) {
    const o = first * EVENT_BYTES;
    problems.push(`${differing} of ${Math.min(ca, cb)} events differ; the first is event ${first}:\n` +
                  `  ${names[0]}: ${JSON.stringify(decodeEvent(ea, o))}\n  ${names[1]}: ${JSON.stringify(decodeEvent(eb, o))}`);
  }
  return problems;
}

// The number of events a trace file holds.
export function eventCount(bytes, name = 'trace') {
  const s = sections(bytes, name);
  return s.TRCE ? Number(s.TRCE.readBigUInt64LE(0)) : 0;
}
