// The `lab:` lines of a kernel file (lab.h, LabFileSettings) and the verdicts' names.
#include <algorithm>
#include <charconv>
#include <sstream>

#include "core/run/launch_config.h"
#include "lab.h"

namespace tilescope::lab {

namespace {
constexpr std::pair<LabVerdict, std::string_view> kVerdictNames[] = {
    {LabVerdict::Verified, "verified"},          {LabVerdict::WrongResult, "wrong result"},
    {LabVerdict::OutOfBounds, "out-of-bounds"},  {LabVerdict::Hazard, "hazard"},
    {LabVerdict::CompileError, "compile error"}, {LabVerdict::Crashed, "crashed"},
    {LabVerdict::TimedOut, "timed out"},         {LabVerdict::Deadlocked, "deadlocked"},
};

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r"));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
  return s;
}

Result<int> number(const std::string& text, const std::string& what) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return invalidInput(what + " '" + text + "' is not a whole number");
  return v;
}
}  // namespace

std::string_view verdictName(LabVerdict v) {
  for (const auto& [verdict, name] : kVerdictNames)
    if (verdict == v) return name;
  return "unknown";
}

std::optional<LabVerdict> verdictByName(std::string_view name) {
  for (const auto& [verdict, n] : kVerdictNames)
    if (n == name) return verdict;
  return std::nullopt;
}

int verdictExitCode(LabVerdict v) {
  switch (v) {
    case LabVerdict::Verified: return 0;
    case LabVerdict::WrongResult:
    case LabVerdict::OutOfBounds:
    case LabVerdict::Hazard: return 1;
    case LabVerdict::CompileError: return 2;
    case LabVerdict::Crashed:
    case LabVerdict::TimedOut:
    case LabVerdict::Deadlocked: return 3;
  }
  return 3;
}

Result<Dim3> parseShape(const std::string& text, const std::string& what) {
  const auto x = text.find('x');
  if (x == std::string::npos) return invalidInput(what + " '" + text + "' is not of the form AxB (e.g. 16x16)");
  auto a = number(text.substr(0, x), what);
  auto b = number(text.substr(x + 1), what);
  if (!a) return a.error();
  if (!b) return b.error();
  if (*a < 1 || *b < 1) return invalidInput(what + " '" + text + "': both sides must be at least 1");
  return Dim3{unsigned(*a), unsigned(*b), 1};
}

Result<LabFileSettings> readLabSettings(std::string_view source, std::string_view fileName) {
  LabFileSettings s;
  std::istringstream in{std::string(source)};
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const auto at = line.find("// lab:");
    if (at == std::string::npos) continue;
    auto bad = [&](const std::string& why) {
      return invalidInput(std::string(fileName) + ":" + std::to_string(lineNo) + ": " + why);
    };
    const std::string rest = trim(line.substr(at + 7));
    const auto space = rest.find_first_of(" \t");
    const std::string key = rest.substr(0, space);
    const std::string value = space == std::string::npos ? "" : trim(rest.substr(space));
    if (key == "from") {
      s.from = value;
    } else if (key == "expect") {
      if (!verdictByName(value)) return bad("unknown verdict '" + value + "' (verified, wrong result, out-of-bounds, hazard, compile error, crashed, timed out, deadlocked)");
      s.expect = value;
    } else if (key == "define" || key == "arg") {
      const auto eq = value.find('=');
      if (eq == std::string::npos || eq == 0) return bad(key + " needs NAME=VALUE");
      if (key == "define") {
        s.defines.push_back({trim(value.substr(0, eq)), trim(value.substr(eq + 1))});
      } else {
        auto v = number(trim(value.substr(eq + 1)), "arg value");
        if (!v) return bad(v.error().message);
        s.args.push_back({trim(value.substr(0, eq)), double(*v)});
      }
    } else if (key == "size") {
      auto v = number(value, "size");
      if (!v) return bad(v.error().message);
      s.size = *v;
    } else if (key == "dims") {
      int d[3] = {0, 0, 0};
      std::istringstream parts(value);
      std::string part;
      int n = 0;
      while (std::getline(parts, part, ',') && n < 3) {
        auto v = number(trim(part), "dims");
        if (!v) return bad(v.error().message);
        d[n++] = *v;
      }
      if (n != 3 || std::getline(parts, part)) return bad("dims needs J,K,L");
      s.dims = Dims{d[0], d[1], d[2]};
    } else if (key == "block" || key == "grid") {
      auto shape = parseShape(value, key);
      if (!shape) return bad(shape.error().message);
      (key == "block" ? s.block : s.grid) = *shape;
    } else if (key == "shared-bytes") {
      auto v = number(value, "shared-bytes");
      if (!v || *v < 0) return bad("shared-bytes needs a number of bytes");
      s.sharedBytes = unsigned(*v);
    } else {
      return bad("unknown lab setting '" + key + "' (from, expect, define, arg, size, dims, block, grid, shared-bytes)");
    }
  }
  return s;
}

Result<LabRequest> requestFromFile(std::string source, std::string fileName) {
  auto settings = readLabSettings(source, fileName);
  if (!settings) return settings.error();
  LabRequest r;
  r.source = std::move(source);
  r.fileName = std::move(fileName);
  if (settings->size) r.dims = Dims{*settings->size, *settings->size, *settings->size};
  if (settings->dims) r.dims = *settings->dims;
  r.defines = settings->defines;
  r.block = settings->block;
  r.grid = settings->grid;
  r.args = settings->args;
  if (settings->sharedBytes) r.sharedBytes = *settings->sharedBytes;
  return r;
}

}  // namespace tilescope::lab
