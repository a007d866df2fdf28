#include "core/files/trace_file.h"

#include "core/files/output_file.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/trace/memory_layout.h"
#include "kernels/trace/mma_fragments.h"

#ifndef TILESCOPE_VERSION
#define TILESCOPE_VERSION "unknown"
#endif

namespace tilescope {

static_assert(std::endian::native == std::endian::little, "trace files are written in the host's byte order");

namespace {

constexpr std::array<char, 8> kMagic{'T', 'S', 'C', 'T', 'R', 'A', 'C', 'E'};
constexpr std::size_t kHeaderBytes = 16, kSectionHeaderBytes = 12, kEndBytes = kSectionHeaderBytes + 4;
constexpr uint32_t kMaxString = 4096;

constexpr uint32_t tag(const char (&s)[5]) {
  return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
         uint32_t(uint8_t(s[3])) << 24;
}
constexpr uint32_t kConf = tag("CONF"), kHost = tag("HOST"), kMatM = tag("MATM"), kMatN = tag("MATN"),
                   kMatP = tag("MATP"), kTrce = tag("TRCE"), kOutc = tag("OUTC"), kEnd = tag("END ");
// The ladder's kernels: their tiling (launch_params.h), seven int32; absent for the others,
// and skipped by a reader that does not know it.
constexpr uint32_t kTile = tag("TILE");
// A persistent grid (LaunchConfig::persistentBlocks), one int32; absent for a grid of
// one block per tile. A reader that skips it plans one block per tile, and the events of a
// split grid's blocks are then refused as outside the launch, never misread.
constexpr uint32_t kGrid = tag("GRID");

std::string tagName(uint32_t t) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = char((t >> (8 * i)) & 0xff);
    s += (c >= 32 && c < 127) ? c : '?';
  }
  return s;
}

// ---- writing ----------------------------------------------------------------------

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  void putString(std::string_view s) {
    const uint32_t n = uint32_t(std::min<std::size_t>(s.size(), kMaxString));
    put(n);
    bytes_.insert(bytes_.end(), s.begin(), s.begin() + n);
  }
  void putRaw(const void* data, std::size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + n);
  }
  void putMatrix(const Matrix& m) {
    put(int32_t(m.rows));
    put(int32_t(m.cols));
    putRaw(m.values.data(), m.values.size() * sizeof(float));
  }
  // Sections: begin writes the tag and a placeholder length that end fills in.
  std::size_t begin(uint32_t t) {
    put(t);
    put(uint64_t(0));
    return bytes_.size();
  }
  void end(std::size_t start) {
    const uint64_t n = bytes_.size() - start;
    std::memcpy(bytes_.data() + start - sizeof(uint64_t), &n, sizeof n);
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// ---- reading ----------------------------------------------------------------------

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, std::size_t base) : bytes_(bytes), base_(base) {}
  std::size_t left() const { return bytes_.size() - pos_; }
  std::size_t offset() const { return base_ + pos_; }
  template <class T>
  bool get(T& v) {
    if (left() < sizeof(T)) return false;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool getString(std::string& s) {
    uint32_t n = 0;
    if (!get(n) || n > kMaxString || left() < n) return false;
    s.assign(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  bool getRaw(void* out, std::size_t n) {
    if (left() < n) return false;
    if (n) std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
    return true;
  }

 private:
  std::span<const uint8_t> bytes_;
  std::size_t base_;
  std::size_t pos_ = 0;
};

class Decoder {
 public:
  Decoder(std::span<const uint8_t> bytes, const std::string& name) : bytes_(bytes), name_(name) {}
  Result<SavedRun> decode();

 private:
  Error bad(std::size_t offset, const std::string& what) const {
    return invalidInput(name_ + ": " + what + " (at byte " + std::to_string(offset) + ")");
  }
  Error truncated(uint32_t t, const Reader& r) const {
    return bad(r.offset(), "section " + tagName(t) + " ends early: the file is corrupt or truncated");
  }
  std::optional<Error> readConfig(Reader& r);
  std::optional<Error> readHost(Reader& r);
  std::optional<Error> readMatrix(Reader& r, uint32_t t, Matrix& m);
  std::optional<Error> readTrace(Reader& r);
  std::optional<Error> readOutcome(Reader& r);
  std::optional<Error> checkShapes();

  std::span<const uint8_t> bytes_;
  std::string name_;
  SavedRun saved_;
  bool haveConfig_ = false;
};

std::optional<Error> Decoder::readConfig(Reader& r) {
  std::string kernel;
  int32_t v[7];
  uint64_t seed = 0;
  if (!r.getString(kernel) || !r.getRaw(v, sizeof v) || !r.get(seed)) return truncated(kConf, r);
  auto id = kernelByName(kernel);
  if (!id) return bad(r.offset(), "unknown kernel '" + kernel + "' (written by another version of tilescope?)");
  LaunchConfig& c = saved_.run.config;
  c.kernel = *id;
  saved_.run.kernel = BuiltInKernel{*id};
  c.dims = {v[0], v[1], v[2]};
  c.tile = v[3];
  c.blockX = v[4];
  c.blockY = v[5];
  c.pad = v[6];
  c.seed = seed;
  haveConfig_ = true;
  return std::nullopt;
}

std::optional<Error> Decoder::readHost(Reader& r) {
  Run& run = saved_.run;
  if (!r.getString(run.backend) || !r.getString(run.device) || !r.getString(saved_.toolVersion) ||
      !r.get(run.seconds))
    return truncated(kHost, r);
  return std::nullopt;
}

std::optional<Error> Decoder::readMatrix(Reader& r, uint32_t t, Matrix& m) {
  int32_t rows = 0, cols = 0;
  if (!r.get(rows) || !r.get(cols)) return truncated(t, r);
  if (rows < 1 || cols < 1 || rows > kMaxDimension || cols > kMaxDimension)
    return bad(r.offset(), "matrix " + tagName(t).substr(3) + " has an impossible shape " + std::to_string(rows) +
                               "x" + std::to_string(cols));
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (r.left() != n * sizeof(float))
    return bad(r.offset(), "matrix " + tagName(t).substr(3) + " should hold " + std::to_string(n) +
                               " floats but its section has " + std::to_string(r.left()) + " bytes");
  m = Matrix(rows, cols);
  r.getRaw(m.values.data(), n * sizeof(float));
  return std::nullopt;
}

std::optional<Error> Decoder::readTrace(Reader& r) {
  uint64_t count = 0;
  if (!r.get(count)) return truncated(kTrce, r);
  if (count > kMaxTraceEvents || r.left() != count * sizeof(Event))
    return bad(r.offset(), "trace section announces " + std::to_string(count) + " events but holds " +
                               std::to_string(r.left()) + " bytes");
  Trace t;
  t.events.resize(count);
  r.getRaw(t.events.data(), count * sizeof(Event));
  saved_.run.trace = std::move(t);
  return std::nullopt;
}

std::optional<Error> Decoder::readOutcome(Reader& r) {
  LaunchOutcome& o = saved_.run.outcome;
  uint64_t total = 0;
  uint32_t n = 0;
  uint8_t overflowed = 0;
  if (!r.get(total) || !r.get(n)) return truncated(kOutc, r);
  if (n > kMaxRecordedOutOfBounds || n > total) return bad(r.offset(), "implausible out-of-bounds count");
  o.outOfBoundsTotal = total;
  for (uint32_t i = 0; i < n; ++i) {
    OutOfBoundsAccess a;
    int64_t index = 0, count = 0;
    uint8_t write = 0;
    int32_t line = 0;
    uint32_t dims[6];
    if (!r.getString(a.array) || !r.get(index) || !r.get(count) || !r.get(write) || !r.get(line) ||
        !r.getRaw(dims, sizeof dims))
      return truncated(kOutc, r);
    a.index = index;
    a.count = count;
    a.line = line;
    a.write = write != 0;
    a.block = {dims[0], dims[1], dims[2]};
    a.thread = {dims[3], dims[4], dims[5]};
    o.outOfBounds.push_back(std::move(a));
  }
  uint32_t d = 0;
  if (!r.get(d)) return truncated(kOutc, r);
  if (d > uint32_t(kMaxGridDim) * 4u || r.left() < std::size_t(d) * 28) return truncated(kOutc, r);
  for (uint32_t i = 0; i < d; ++i) {
    BarrierDivergence b;
    uint32_t block[3];
    int32_t v[4];
    if (!r.getRaw(block, sizeof block) || !r.getRaw(v, sizeof v)) return truncated(kOutc, r);
    b.block = {block[0], block[1], block[2]};
    b.arrived = v[0], b.exited = v[1], b.line = v[2], b.otherLine = v[3];
    o.divergences.push_back(b);
  }
  if (!r.get(overflowed)) return truncated(kOutc, r);
  o.traceOverflowed = overflowed != 0;
  return std::nullopt;
}

// Everything that must agree with the plan this build derives from the stored config.
// What a launch lets its events name: a file must not be able to point a view anywhere else,
// whatever its checksum says.
struct EventReach {
  KernelLaunch launch;
  SharedLayout shared;
  int phases = 1;
  int coordinate = 0;  // every coordinate a kernel of this launch can form
  int kSteps = 1;
};

EventReach eventReach(const LaunchPlan& plan) {
  EventReach r;
  r.launch = plan.launch;
  r.shared = sharedLayout(plan.launch);
  r.phases = std::max(plan.phases, 1);
  const KernelLaunch& L = plan.launch;
  // The matrices, the grid's coverage and the phases rounded up to whole tiles (the unchecked
  // kernels reach that far).
  r.coordinate = std::max({L.j, L.k, L.l, int(L.gridX * L.blockX), int(L.gridY * L.blockY),
                           (plan.phases + 1) * std::max(L.tile, 1)});
  r.kSteps = std::max({L.k, L.tile, 1});
  return r;
}

// The coordinates of a matrix element or a zero fill, or nullptr when they are the launch's.
const char* matrixOutOfRange(const Event& e, const EventReach& r) {
  const KernelLaunch& L = r.launch;
  if (zeroFilled(e)) {  // a boundary check's fill of a slot: no element of M or N was touched
    return e.op == Op::StoreP || e.globalRow != -1 || e.globalCol != -1 ? "matrix element" : nullptr;
  }
  if (e.op != Op::LoadM && e.op != Op::LoadN && e.op != Op::StoreP) return nullptr;
  const int rows = e.op == Op::LoadM ? L.j : e.op == Op::LoadN ? L.k : L.j;
  const int cols = e.op == Op::LoadM ? L.k : L.l;
  if (e.globalRow < -1 || e.globalRow > r.coordinate || e.globalCol < -1 || e.globalCol > r.coordinate)
    return "matrix element";
  const bool inside = e.globalRow >= 0 && e.globalRow < rows && e.globalCol >= 0 && e.globalCol < cols;
  return inBounds(e) != inside ? "in-bounds flag" : nullptr;
}

// What of event `e` lies outside what its launch can produce, or nullptr when nothing does.
const char* outOfRange(const Event& e, const EventReach& r) {
  const KernelLaunch& L = r.launch;
  const bool opOk = e.op != Op::None && uint8_t(e.op) < kOpCount;
  if (!opOk || e.blockX >= L.gridX || e.blockY >= L.gridY || e.threadX >= L.blockX || e.threadY >= L.blockY ||
      (e.flags & ~uint8_t(kInBounds | kZeroFill | kWide | kStagedRead | kStagedWrite)) != 0)
    return "op, block, thread or flags";
  if (e.phase < 0 || e.phase >= r.phases || e.k < -1 || e.k >= r.kSteps) return "phase or k";
  // Rung 8's copy engine: a copy names its box's origin and first slot, an mbarrier step the
  // barrier's index (sharedRow) and its array's declaration number (sharedCol).
  if (e.op == Op::CopyM || e.op == Op::CopyN) {
    if (e.globalRow < 0 || e.globalRow > r.coordinate || e.globalCol < 0 || e.globalCol > r.coordinate) return "box";
    return e.sharedRow < 0 || e.sharedCol < 0 ? "shared slot" : nullptr;
  }
  if (e.op == Op::MbarrierInit || e.op == Op::MbarrierArrive || e.op == Op::MbarrierWait)
    return e.sharedRow < 0 || e.sharedCol < 0 || e.sharedCol >= kMaxSharedArrays ? "mbarrier" : nullptr;
  // A lane's tensor-core fragment element: its row and column in the MMA's operand (A 16 x 8,
  // B 8 x 8; the accumulators 16 x 8, or a warpgroup MMA's 64 x N up to N = 256), no global
  // coordinates.
  if (e.op == Op::MmaA || e.op == Op::MmaB || e.op == Op::MmaC) {
    const int rows = e.op == Op::MmaB ? kMmaK : e.op == Op::MmaC ? kWgmmaM : kMmaM;
    const int cols = e.op == Op::MmaC ? 256 : kMmaN;
    if (e.sharedRow < 0 || e.sharedRow >= rows || e.sharedCol < 0 || e.sharedCol >= cols) return "fragment element";
    return e.globalRow != -1 || e.globalCol != -1 ? "matrix element" : nullptr;
  }
  // The workspace: element globalCol of an array beside M, N and P, always in bounds.
  if (e.op == Op::LoadW || e.op == Op::StoreW) {
    if (e.globalRow != 0 || e.globalCol < 0 || !inBounds(e) || zeroFilled(e)) return "workspace element";
    return e.sharedRow != -1 || e.sharedCol != -1 ? "shared slot" : nullptr;
  }
  if (const char* what = matrixOutOfRange(e, r)) return what;
  const bool touchesShared =
      (e.op == Op::LoadM || e.op == Op::LoadN) ? e.sharedRow >= 0 : e.op == Op::ReadM || e.op == Op::ReadN;
  if (touchesShared) {
    const auto address = sharedAddress(e, r.shared);
    return e.sharedRow < 0 || e.sharedCol < 0 || !address || *address >= r.shared.bytes ? "shared slot" : nullptr;
  }
  return e.sharedRow != -1 && e.op != Op::LoadM && e.op != Op::LoadN ? "shared slot" : nullptr;
}

std::optional<Error> Decoder::checkShapes() {
  Run& run = saved_.run;
  const LaunchConfig& c = run.config;
  auto plan = planLaunch(c, run.trace.has_value());
  if (!plan) return invalidInput(name_ + ": the stored launch is not valid: " + plan.error().message);
  run.plan = *plan;
  const Dims& d = c.dims;
  auto shape = [&](const Matrix& m, int rows, int cols, char which) -> std::optional<Error> {
    if (m.rows == rows && m.cols == cols) return std::nullopt;
    return invalidInput(name_ + ": matrix " + std::string(1, which) + " is " + std::to_string(m.rows) + "x" +
                        std::to_string(m.cols) + " but the launch needs " + std::to_string(rows) + "x" +
                        std::to_string(cols));
  };
  if (auto e = shape(run.m, d.j, d.k, 'M')) return e;
  if (auto e = shape(run.n, d.k, d.l, 'N')) return e;
  if (auto e = shape(run.p, d.j, d.l, 'P')) return e;
  if (!run.trace) return std::nullopt;

  Trace& t = *run.trace;
  t.launch = plan->launch;
  t.phases = plan->phases;
  if (t.events.size() > plan->traceSlots)
    return invalidInput(name_ + ": the trace holds " + std::to_string(t.events.size()) + " events, more than the " +
                        std::to_string(plan->traceSlots) + " its launch can produce");
  const EventReach reach = eventReach(*plan);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (const char* what = outOfRange(t.events[i], reach))
      return invalidInput(name_ + ": trace event " + std::to_string(i) + " is not one this launch can produce (" +
                          what + " out of range)");
  }
  if (auto order = checkCanonicalOrder(t); !order) return invalidInput(name_ + ": " + order.error().message);
  return std::nullopt;
}

Result<SavedRun> Decoder::decode() {
  if (bytes_.size() < kHeaderBytes + kEndBytes)
    return bad(0, "too short to be a tilescope trace file (" + std::to_string(bytes_.size()) + " bytes)");
  if (std::memcmp(bytes_.data(), kMagic.data(), kMagic.size()) != 0)
    return bad(0, "not a tilescope trace file (no TSCTRACE signature)");
  uint32_t version = 0;
  std::memcpy(&version, bytes_.data() + 8, sizeof version);
  if (version != kTraceFileVersion)
    return bad(8, "format version " + std::to_string(version) + ", but this tilescope reads version " +
                      std::to_string(kTraceFileVersion) + (version > kTraceFileVersion ? " (the file is newer)" : ""));
  saved_.formatVersion = version;

  std::size_t pos = kHeaderBytes;
  uint32_t seen = 0;  // bit per known section
  bool ended = false;
  while (!ended) {
    if (bytes_.size() - pos < kSectionHeaderBytes) return bad(pos, "the file ends without its END section: truncated");
    uint32_t t = 0;
    uint64_t length = 0;
    std::memcpy(&t, bytes_.data() + pos, 4);
    std::memcpy(&length, bytes_.data() + pos + 4, 8);
    const std::size_t start = pos + kSectionHeaderBytes;
    if (length > bytes_.size() - start)
      return bad(pos, "section " + tagName(t) + " claims " + std::to_string(length) + " bytes but only " +
                          std::to_string(bytes_.size() - start) + " remain: truncated");
    Reader r(bytes_.subspan(start, std::size_t(length)), start);
    const uint32_t known[] = {kConf, kHost, kMatM, kMatN, kMatP, kTrce, kOutc, kEnd, kTile, kGrid};
    for (uint32_t b = 0; b < 10; ++b)
      if (t == known[b]) {
        if (seen & (1u << b)) return bad(pos, "section " + tagName(t) + " appears twice");
        seen |= 1u << b;
      }
    std::optional<Error> err;
    if (t == kConf) err = readConfig(r);
    else if (t == kHost) err = readHost(r);
    else if (t == kMatM) err = readMatrix(r, t, saved_.run.m);
    else if (t == kMatN) err = readMatrix(r, t, saved_.run.n);
    else if (t == kMatP) err = readMatrix(r, t, saved_.run.p);
    else if (t == kTrce) err = readTrace(r);
    else if (t == kOutc) err = readOutcome(r);
    else if (t == kTile) {
      int32_t v[7];
      if (!r.getRaw(v, sizeof v)) return truncated(kTile, r);
      saved_.run.config.tiling = {v[0], v[1], v[2], v[3], v[4], v[5], v[6]};
    } else if (t == kGrid) {  // its range is planLaunch's to check, with the rest of the config
      int32_t blocks = 0;
      if (length != sizeof blocks || !r.get(blocks)) return bad(pos, "malformed GRID section");
      saved_.run.config.persistentBlocks = blocks;
    }
    else if (t == kEnd) {
      uint32_t stored = 0;
      if (length != 4 || !r.get(stored)) return bad(pos, "malformed END section");
      if (start + 4 != bytes_.size()) return bad(start + 4, "unexpected bytes after the END section");
      if (crc32(bytes_.subspan(0, pos)) != stored)
        return bad(pos, "checksum mismatch: the file is corrupt");
      ended = true;
    }
    if (err) return *err;
    pos = start + std::size_t(length);
  }
  const char* required[] = {"CONF", "HOST", "MATM", "MATN", "MATP", nullptr, "OUTC"};
  for (uint32_t b = 0; b < 7; ++b)
    if (required[b] && !(seen & (1u << b))) return bad(pos, std::string("the file has no ") + required[b] + " section");
  if (auto e = checkShapes()) return *e;
  Run& run = saved_.run;
  run.verification = verifyProduct(run.m, run.n, run.p, 1L << 20, operandMantissaBits(run));
  return std::move(saved_);
}

}  // namespace

std::string_view toolVersion() { return TILESCOPE_VERSION; }

uint32_t crc32(std::span<const uint8_t> bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int b = 0; b < 8; ++b) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::vector<uint8_t> encodeRun(const Run& run) {
  Writer w;
  w.putRaw(kMagic.data(), kMagic.size());
  w.put(kTraceFileVersion);
  w.put(uint32_t(0));

  const LaunchConfig& c = run.config;
  std::size_t s = w.begin(kConf);
  w.putString(kernelInfo(c.kernel).name);
  const int32_t v[7] = {c.dims.j, c.dims.k, c.dims.l, c.tile, c.blockX, c.blockY, c.pad};
  w.putRaw(v, sizeof v);
  w.put(uint64_t(c.seed));
  w.end(s);
  if (!c.tiling.empty()) {
    s = w.begin(kTile);
    const Tiling& t = c.tiling;
    const int32_t tv[7] = {t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn};
    w.putRaw(tv, sizeof tv);
    w.end(s);
  }
  if (c.persistentBlocks != 0) {
    s = w.begin(kGrid);
    w.put(int32_t(c.persistentBlocks));
    w.end(s);
  }

  s = w.begin(kHost);
  w.putString(run.backend);
  w.putString(run.device);
  w.putString(toolVersion());
  w.put(run.seconds);
  w.end(s);

  const std::pair<uint32_t, const Matrix*> matrices[] = {{kMatM, &run.m}, {kMatN, &run.n}, {kMatP, &run.p}};
  for (const auto& [t, m] : matrices) {
    s = w.begin(t);
    w.putMatrix(*m);
    w.end(s);
  }

  if (run.trace) {
    s = w.begin(kTrce);
    w.put(uint64_t(run.trace->events.size()));
    w.putRaw(run.trace->events.data(), run.trace->events.size() * sizeof(Event));
    w.end(s);
  }

  const LaunchOutcome& o = run.outcome;
  s = w.begin(kOutc);
  w.put(uint64_t(o.outOfBoundsTotal));
  const std::size_t recorded = std::min(o.outOfBounds.size(), kMaxRecordedOutOfBounds);
  w.put(uint32_t(recorded));
  for (std::size_t i = 0; i < recorded; ++i) {
    const auto& a = o.outOfBounds[i];
    w.putString(a.array);
    w.put(int64_t(a.index));
    w.put(int64_t(a.count));
    w.put(uint8_t(a.write));
    w.put(int32_t(a.line));
    const uint32_t dims[6] = {a.block.x, a.block.y, a.block.z, a.thread.x, a.thread.y, a.thread.z};
    w.putRaw(dims, sizeof dims);
  }
  w.put(uint32_t(o.divergences.size()));
  for (const auto& d : o.divergences) {
    const uint32_t block[3] = {d.block.x, d.block.y, d.block.z};
    const int32_t vals[4] = {d.arrived, d.exited, d.line, d.otherLine};
    w.putRaw(block, sizeof block);
    w.putRaw(vals, sizeof vals);
  }
  w.put(uint8_t(o.traceOverflowed));
  w.end(s);

  const uint32_t crc = crc32(w.bytes());
  s = w.begin(kEnd);
  w.put(crc);
  w.end(s);
  return std::move(w.bytes());
}

Result<SavedRun> decodeRun(std::span<const uint8_t> bytes, const std::string& name) {
  return Decoder(bytes, name).decode();
}

Status saveRun(const Run& run, const std::string& path) {
  // A trace file names a built-in kernel and is replayed as one: a lab kernel's run would come
  // back as the kernel its config happens to name.
  if (const LabKernel* lab = labKernel(run))
    return invalidInput("a lab kernel's run (" + lab->name + ") cannot be saved as a trace file: it names built-in kernels only");
  const std::vector<uint8_t> bytes = encodeRun(run);
  const std::string staging = stagingPathFor(path);
  {
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    if (!out) return failure("cannot open '" + staging + "' for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    out.close();
    if (!out) {
      discardStaging(staging, path);
      return failure("writing '" + staging + "' failed (disk full?)");
    }
  }
  return moveIntoPlace(staging, path);
}

Result<SavedRun> loadRun(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidInput("cannot open '" + path + "' for reading");
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return invalidInput("cannot read the size of '" + path + "'");
  constexpr uint64_t kLimit = kMaxTraceEvents * kEventBytes + (uint64_t(3) << 30);
  if (size > kLimit) return invalidInput("'" + path + "' is larger than any trace file tilescope writes");
  std::vector<uint8_t> bytes(size);
  in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size));
  if (!in) return failure("reading '" + path + "' failed");
  return decodeRun(bytes, path);
}

}  // namespace tilescope
