#include "lab_ipc.h"

#include <cstring>
#include <fstream>
#include <sstream>

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
  Status save(const std::filesystem::path& file) const {
    std::ofstream out(file, std::ios::binary);
    out.write(bytes_.data(), std::streamsize(bytes_.size()));
    out.close();
    if (!out) return failure("cannot write " + file.string());
    return Ok{};
  }

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

Result<std::string> slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return failure("cannot read " + file.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

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

Result<RunnerResponse> readRunnerResponse(const std::filesystem::path& file) {
  auto bytes = slurp(file);
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
  std::ifstream in(file);
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
