// A strict JSON reader for the grader's tests (RFC 8259: one value, nothing after it, strings
// of well-formed UTF-8 with control bytes escaped), so a test can say "this is JSON a course
// platform will read" and then look at its structure and types.
#pragma once
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::testing {

struct Json {
  enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
  bool boolean = false;
  double number = 0.0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;
  const Json* at(const std::string& key) const {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &it->second;
  }
};

class JsonReader {
 public:
  // The value, or nullopt (and `error` says where) when `text` is not exactly one JSON value.
  static std::optional<Json> parse(const std::string& text, std::string* error = nullptr) {
    JsonReader r(text);
    Json v;
    const bool ok = r.value(v) && (r.space(), r.at_ == text.size());
    if (!ok && error) *error = "not JSON at byte " + std::to_string(r.at_);
    return ok ? std::optional<Json>(std::move(v)) : std::nullopt;
  }

 private:
  explicit JsonReader(const std::string& s) : s_(s) {}
  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\n' || s_[at_] == '\t' || s_[at_] == '\r')) ++at_;
  }
  bool literal(const char* word) {
    const std::string w = word;
    if (s_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }
  bool value(Json& v) {
    space();
    if (at_ >= s_.size() || ++depth_ > 64) return false;
    const char c = s_[at_];
    bool ok;
    if (c == '{') ok = object(v);
    else if (c == '[') ok = array(v);
    else if (c == '"') v.type = Json::Type::String, ok = string(v.string);
    else if (c == 't' || c == 'f') v.type = Json::Type::Bool, v.boolean = c == 't', ok = literal(c == 't' ? "true" : "false");
    else if (c == 'n') ok = literal("null");
    else v.type = Json::Type::Number, ok = number(v.number);
    --depth_;
    return ok;
  }
  bool object(Json& v) {
    v.type = Json::Type::Object;
    ++at_;
    space();
    if (at_ < s_.size() && s_[at_] == '}') return ++at_, true;
    for (;;) {
      std::string key;
      space();
      if (at_ >= s_.size() || s_[at_] != '"' || !string(key)) return false;
      space();
      if (at_ >= s_.size() || s_[at_++] != ':') return false;
      if (!value(v.object[key])) return false;
      space();
      if (at_ >= s_.size()) return false;
      if (s_[at_] == '}') return ++at_, true;
      if (s_[at_++] != ',') return false;
    }
  }
  bool array(Json& v) {
    v.type = Json::Type::Array;
    ++at_;
    space();
    if (at_ < s_.size() && s_[at_] == ']') return ++at_, true;
    for (;;) {
      v.array.emplace_back();
      if (!value(v.array.back())) return false;
      space();
      if (at_ >= s_.size()) return false;
      if (s_[at_] == ']') return ++at_, true;
      if (s_[at_++] != ',') return false;
    }
  }
  bool string(std::string& out) {
    ++at_;
    while (at_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[at_]);
      if (c == '"') return ++at_, true;
      if (c < 0x20) return false;
      if (c == '\\') {
        if (++at_ >= s_.size()) return false;
        const char e = s_[at_++];
        if (e == 'u') {
          if (at_ + 4 > s_.size()) return false;
          out += "?";  // the code point itself does not matter to these tests
          at_ += 4;
        } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos) {
          return false;
        } else {
          out += e;
        }
        continue;
      }
      const std::size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
      if (n == 0 || at_ + n > s_.size()) return false;
      for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s_[at_ + k]) & 0xc0) != 0x80) return false;
      out.append(s_, at_, n);
      at_ += n;
    }
    return false;
  }
  bool number(double& out) {
    const char* start = s_.c_str() + at_;
    char* end = nullptr;
    out = std::strtod(start, &end);
    if (end == start) return false;
    at_ += std::size_t(end - start);
    return true;
  }
  const std::string& s_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace tilescope::testing
