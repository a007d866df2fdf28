#include "core/run/run_description.h"

#include <charconv>
#include <cstdint>
#include <limits>

namespace tilescope {

namespace {

std::string joined(const std::vector<std::string>& values) {
  std::string s;
  for (const std::string& v : values) s += (s.empty() ? "" : " ") + v;
  return s;
}

// Every whole number in `values`, split at ',' and 'x'; nothing if any piece is not one.
std::optional<std::vector<long long>> numbers(const std::vector<std::string>& values) {
  std::vector<long long> out;
  for (const std::string& v : values) {
    std::size_t from = 0;
    for (;;) {
      const std::size_t end = v.find_first_of(",x", from);
      const std::string_view piece = std::string_view(v).substr(from, end == std::string::npos ? end : end - from);
      long long n = 0;
      const auto r = std::from_chars(piece.data(), piece.data() + piece.size(), n);
      if (piece.empty() || r.ec != std::errc() || r.ptr != piece.data() + piece.size()) return std::nullopt;
      out.push_back(n);
      if (end == std::string::npos) break;
      from = end + 1;
    }
  }
  return out;
}

std::string kernelNames() {
  std::string names;
  for (const auto& k : kKernels) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

// What a numeric setting takes, in words, and its range.
struct NumericSetting {
  std::string_view name;
  std::size_t count;
  long long lo, hi;
  std::string takes;
};

NumericSetting numericSetting(std::string_view name) {
  const std::string dim = std::to_string(kMaxDimension), threads = std::to_string(kMaxThreadsPerBlock);
  if (name == "size") return {name, 1, 1, kMaxDimension, "a whole number from 1 to " + dim};
  if (name == "dims")
    return {name, 3, 1, kMaxDimension, "three whole numbers J,K,L (or J K L, JxKxL) from 1 to " + dim};
  if (name == "tile")
    return {name, 1, 1, kMaxTileWidth,
            "a whole number from 1 to " + std::to_string(kMaxTileWidth) + " (a T x T block holds at most " + threads +
                " threads)"};
  if (name == "block")
    return {name, 2, 1, kMaxThreadsPerBlock,
            "BXxBY (or BX BY): each side must be 1 to " + threads + " and bx*by at most " + threads + " threads"};
  if (name == "pad") return {name, 1, 0, kMaxPad, "a whole number from 0 to " + std::to_string(kMaxPad)};
  if (name == "grid-blocks")
    return {name, 1, 0, kMaxPersistentBlocks,
            "a whole number, 0 to " + std::to_string(kMaxPersistentBlocks) + " (0: one block per tile)"};
  return {name, 1, 0, std::numeric_limits<int64_t>::max(), "a whole number, 0 or more"};  // seed
}

}  // namespace

std::string runSettingNames() {
  std::string names;
  for (std::string_view s : kRunSettings) names += (names.empty() ? "" : ", ") + std::string(s);
  return names;
}

bool isRunSetting(std::string_view name) {
  for (std::string_view s : kRunSettings)
    if (s == name) return true;
  return false;
}

Status readRunSetting(LaunchConfig& c, std::string_view name, const std::vector<std::string>& values, Ranges ranges) {
  const std::string got = ", got '" + joined(values) + "'";
  if (name == "kernel") {
    auto id = values.size() == 1 ? kernelByName(values[0]) : std::nullopt;
    if (!id) return invalidInput("takes a kernel's name" + got + " (unknown kernel): the kernels are " + kernelNames());
    c = withKernel(c, *id);
    return Ok{};
  }
  if (name == "tiling") {
    auto t = values.size() == 1 ? parseTilingOrDefault(values[0]) : Result<Tiling>(invalidInput(""));
    if (!t) return invalidInput("takes BMxBNxBK/TMxTN, BMxBNxBK/WMxWN/TMxTN or default" + got);
    c.tiling = *t;
    return Ok{};
  }
  if (!isRunSetting(name)) return invalidInput("is not a setting of a run (" + runSettingNames() + ")");
  const NumericSetting s = numericSetting(name);
  const auto n = numbers(values);
  bool ok = n && n->size() == s.count;
  for (std::size_t i = 0; ok && i < n->size(); ++i)
    ok = (*n)[i] >= 0 && (*n)[i] <= std::numeric_limits<int>::max() &&
         (ranges == Ranges::LeftToThePlan || ((*n)[i] >= s.lo && (*n)[i] <= s.hi));
  if (ok && name == "block" && ranges == Ranges::Checked) ok = (*n)[0] * (*n)[1] <= kMaxThreadsPerBlock;
  if (name == "seed" && n && n->size() == 1 && (*n)[0] >= 0) ok = true;  // the whole 63 bits
  if (!ok) return invalidInput("takes " + s.takes + got);
  const auto& v = *n;
  if (name == "size") c.dims = {int(v[0]), int(v[0]), int(v[0])};
  else if (name == "dims") c.dims = {int(v[0]), int(v[1]), int(v[2])};
  else if (name == "tile") c.tile = int(v[0]);
  else if (name == "block") c.blockX = int(v[0]), c.blockY = int(v[1]);
  else if (name == "pad") c.pad = int(v[0]);
  else if (name == "grid-blocks") c.persistentBlocks = int(v[0]);
  else c.seed = uint64_t(v[0]);
  return Ok{};
}

}  // namespace tilescope
