#include "lab_ipc.h"

#include <cstring>
#include <sstream>

#include "lab_cache.h"

namespace tilescope::lab {

namespace {

class Writer {
 public:
  template <class T>
  void put(const T& v) {
    const auto* p = reinterpret_cast<const char*>(&v);
    bytes_.append(p, sizeof v);
  }
  void putString(const std::string& s) {
    put(uint64_t(s.size()));
    bytes_ += s;
  }
  template <class T>
  void putVector(const T* data, std::size_t count) {
    put(uint64_t(count));
    bytes_.append(reinterpret_cast<const char*>(data), count * sizeof(T));
  }
  Status save(const std::filesystem::path& file) const { return writeFileBytes(file, bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string bytes) : bytes_(std::move(bytes)) {}
  template <class T>
  bool get(T& v) {
    if (bytes_.size() - at_ < sizeof v) return false;
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return true;
  }
  bool getString(std::string& s) {
    uint64_t n = 0;
    if (!get(n) || bytes_.size() - at_ < n) return false;
    s.assign(bytes_.data() + at_, n);
    at_ += n;
    return true;
  }
  template <class V>
  bool getVector(V& v) {
    uint64_t n = 0;
    if (!get(n) || (bytes_.size() - at_) / sizeof(typename V::value_type) < n) return false;
    v.resize(n);
    if (n == 0) return true;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(static_cast<void*>(v.data()), bytes_.data() + at_, n * sizeof(typename V::value_type));
    at_ += n * sizeof(typename V::value_type);
    return true;
  }

 private:
  std::string bytes_;
  std::size_t at_ = 0;
};

Result<std::string> slurp(const std::filesystem::path& file, uint64_t maxBytes = uint64_t(1) << 40) {
  auto bytes = readFileLimited(file, maxBytes);
  if (!bytes && bytes.error().kind == ErrorKind::InvalidInput)
    return failure("the runner's response is larger than this launch can produce (" + bytes.error().message +
                   "): it was not read");
  return bytes;
}

std::string at(const Event& e) {
  return "block (" + std::to_string(e.blockX) + "," + std::to_string(e.blockY) + ") thread (" +
         std::to_string(e.threadX) + "," + std::to_string(e.threadY) + ")";
}

// Why event `e` cannot be one of this launch's, or "" when it can. `owner`: the thread whose
// slots it was found in (the emulator's slots are per thread), or -1 (the GPU's trace comes
// decoded, in canonical order).
std::string misfit(const Event& e, const RunnerRequest& q, int64_t owner) {
  const bool workspace = e.op == Op::LoadW || e.op == Op::StoreW;  // a global array beside M, N and P
  if (!workspace && (e.op < Op::LoadM || e.op > Op::StoreP))
    return "an operation no lab kernel records (" + std::to_string(int(e.op)) + ")";
  if (e.blockX >= q.grid.x || e.blockY >= q.grid.y || e.threadX >= q.block.x || e.threadY >= q.block.y)
    return at(e) + " is outside the launch's " + std::to_string(q.grid.x) + "x" + std::to_string(q.grid.y) +
           " blocks of " + std::to_string(q.block.x) + "x" + std::to_string(q.block.y) + " threads";
  if (owner >= 0) {
    const uint64_t perBlock = uint64_t(q.block.x) * q.block.y;
    const uint64_t block = uint64_t(e.blockY) * q.grid.x + e.blockX;
    if (uint64_t(owner) != block * perBlock + uint64_t(e.threadY) * q.block.x + e.threadX)
      return at(e) + " was recorded in the slots of another thread";
  }
  if (e.sharedRow < -1 || e.sharedCol < -1) return "a shared slot before the array's start";
  if (workspace && (e.globalRow != 0 || e.globalCol < 0 || e.sharedRow != -1 || !(e.flags & kInBounds)))
    return "a global array's element (" + std::to_string(e.globalRow) + "," + std::to_string(e.globalCol) +
           ") other than (0, its index)";
  // An element of M, N or P said to be inside its matrix (a fill of a shared slot names none;
  // a float4 or a staged part of one may reach three past its column).
  const bool global = e.op == Op::LoadM || e.op == Op::LoadN || e.op == Op::StoreP;
  if (global && (e.flags & kInBounds) && !(e.flags & kZeroFill)) {
    const int rows = e.op == Op::LoadN ? q.k : q.j, cols = e.op == Op::LoadM ? q.k : q.l;
    if (e.globalRow < 0 || e.globalRow >= rows || e.globalCol < 0 || e.globalCol >= cols + 3)
      return "element (" + std::to_string(e.globalRow) + "," + std::to_string(e.globalCol) +
             ") said to be inside a matrix of " + std::to_string(rows) + "x" + std::to_string(cols);
  }
  return {};
}

}  // namespace

std::string responseMisfit(const RunnerResponse& r, const RunnerRequest& q) {
  if (r.p.size() != std::size_t(q.j) * std::size_t(q.l)) return "a P of " + std::to_string(r.p.size()) + " elements";
  const uint64_t threads = uint64_t(q.grid.x) * q.grid.y * q.block.x * q.block.y;
  if (r.slots.size() > threads * std::max(r.slotsPerThread, 1u) || (q.maxTraceSlots && r.slots.size() > q.maxTraceSlots))
    return std::to_string(r.slots.size()) + " events, more than the launch has room for";
  if (!r.slots.empty() && !r.slotsDecoded) return "a trace not decoded on the device";
  for (const Event& e : r.slots)
    if (e.op != Op::None)
      if (std::string why = misfit(e, q, -1); !why.empty()) return why;
  return {};
}

Status writeRunnerRequest(const std::filesystem::path& file, const RunnerRequest& r) {
  Writer w;
  w.put(r.j), w.put(r.k), w.put(r.l), w.put(r.grid), w.put(r.block), w.put(r.sharedBytes);
  w.put(r.slotsPerThread), w.put(r.maxTraceSlots), w.put(r.timeoutSeconds);
  w.putVector(r.scalars.data(), r.scalars.size());
  for (const SharedArrayFacts& f : r.shared) w.put(f);
  w.putVector(r.m.data(), r.m.size());
  w.putVector(r.n.data(), r.n.size());
  w.put(r.seed), w.put(r.warmup), w.put(r.repeats), w.put(r.maxSecondsPerCase);
  return w.save(file);
}

Result<RunnerRequest> readRunnerRequest(const std::filesystem::path& file) {
  auto bytes = slurp(file);
  if (!bytes) return bytes.error();
  Reader in(std::move(*bytes));
  RunnerRequest r;
  bool ok = in.get(r.j) && in.get(r.k) && in.get(r.l) && in.get(r.grid) && in.get(r.block) && in.get(r.sharedBytes) &&
            in.get(r.slotsPerThread) && in.get(r.maxTraceSlots) && in.get(r.timeoutSeconds) && in.getVector(r.scalars);
  for (SharedArrayFacts& f : r.shared) ok = ok && in.get(f);
  ok = ok && in.getVector(r.m) && in.getVector(r.n) && in.get(r.seed) && in.get(r.warmup) && in.get(r.repeats) &&
       in.get(r.maxSecondsPerCase);
  if (!ok) return failure("truncated lab request " + file.string());
  return r;
}

Status writeRunnerResponse(const std::filesystem::path& file, const RunnerResponse& r) {
  Writer w;
  w.putString(r.error);
  w.put(uint64_t(r.outOfBounds.size()));
  for (const OutOfBoundsAccess& a : r.outOfBounds) {
    w.putString(a.array);
    w.put(a.index), w.put(a.count), w.put(a.write), w.put(a.line), w.put(a.block), w.put(a.thread);
  }
  w.put(r.outOfBoundsTotal);
  w.putVector(r.divergences.data(), r.divergences.size());
  w.put(r.traceOverflowed), w.put(r.slotsPerThread);
  w.putVector(r.p.data(), r.p.size());
  w.putVector(r.slots.data(), r.slots.size());
  for (const StaticSharedGeometry& g : r.geometry) w.put(g);
  w.put(r.slotsDecoded), w.put(r.compileFailed), w.put(r.compileCached), w.putString(r.compileLog);
  w.put(r.compileSeconds), w.putString(r.kernelFault), w.putString(r.gpu.device), w.put(r.gpu.registersPerThread);
  w.put(r.gpu.tracedRegistersPerThread), w.put(r.gpu.staticSharedBytes), w.put(r.gpu.localBytesPerThread);
  const RunnerTiming& t = r.timing;
  w.put(t.verified), w.putString(t.verification), w.put(t.maxRelativeError), w.put(t.medianMs), w.put(t.minMs);
  w.put(t.maxMs), w.put(t.gflops), w.put(t.repeats);
  return w.save(file);
}

Result<RunnerResponse> readRunnerResponse(const std::filesystem::path& file, uint64_t maxBytes) {
  auto bytes = slurp(file, maxBytes);
  if (!bytes) return bytes.error();
  Reader in(std::move(*bytes));
  RunnerResponse r;
  uint64_t count = 0;
  bool ok = in.getString(r.error) && in.get(count) && count <= kMaxRecordedOutOfBounds;
  for (uint64_t i = 0; ok && i < count; ++i) {
    OutOfBoundsAccess a;
    ok = in.getString(a.array) && in.get(a.index) && in.get(a.count) && in.get(a.write) && in.get(a.line) &&
         in.get(a.block) && in.get(a.thread);
    r.outOfBounds.push_back(std::move(a));
  }
  ok = ok && in.get(r.outOfBoundsTotal) && in.getVector(r.divergences) && in.get(r.traceOverflowed) &&
       in.get(r.slotsPerThread) && in.getVector(r.p) && in.getVector(r.slots);
  for (StaticSharedGeometry& g : r.geometry) ok = ok && in.get(g);
  ok = ok && in.get(r.slotsDecoded) && in.get(r.compileFailed) && in.get(r.compileCached) && in.getString(r.compileLog) &&
       in.get(r.compileSeconds) && in.getString(r.kernelFault) && in.getString(r.gpu.device) &&
       in.get(r.gpu.registersPerThread) && in.get(r.gpu.tracedRegistersPerThread) && in.get(r.gpu.staticSharedBytes) &&
       in.get(r.gpu.localBytesPerThread);
  RunnerTiming& t = r.timing;
  ok = ok && in.get(t.verified) && in.getString(t.verification) && in.get(t.maxRelativeError) && in.get(t.medianMs) &&
       in.get(t.minMs) && in.get(t.maxMs) && in.get(t.gflops) && in.get(t.repeats);
  if (!ok) return failure("truncated lab response " + file.string());
  return r;
}

RunnerStop readRunnerStop(const std::filesystem::path& file) {
  RunnerStop s;
  std::istringstream in(readFileBytes(file).substr(0, 4096));
  std::string word;
  while (in >> word) {
    if (word == "timeout") s.timeout = true;
    else if (word == "signal") in >> s.signal;
    else if (word == "sandbox") in >> s.syscall;
    else if (word == "block") in >> s.block.x >> s.block.y, s.located = true;
    else if (word == "thread") in >> s.thread.x >> s.thread.y;
    else if (word == "line") in >> s.line;
  }
  return s;
}

}  // namespace tilescope::lab
