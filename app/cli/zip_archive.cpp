#include "zip_archive.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <span>

#include "core/files/trace_file.h"

namespace tilescope::cli {

namespace {

void put16(std::string& out, uint32_t v) {
  out += char(v & 0xff);
  out += char((v >> 8) & 0xff);
}
void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

struct Written {
  std::string name;
  uint32_t crc = 0, size = 0, offset = 0, mode = 0;
};

// The fields a local header and a central directory entry share, from "version needed" on.
void putCommon(std::string& out, const Written& w) {
  put16(out, 20);      // version needed to extract: 2.0
  put16(out, 0x0800);  // flags: the name is UTF-8
  put16(out, 0);       // method: stored
  put16(out, 0);       // time: 00:00:00
  put16(out, 0x21);    // date: 1980-01-01 (a fixed date: the same files make the same zip)
  put32(out, w.crc);
  put32(out, w.size);  // compressed size
  put32(out, w.size);  // uncompressed size
  put16(out, uint32_t(w.name.size()));
  put16(out, 0);  // extra field length
}

}  // namespace

Status writeZip(const std::filesystem::path& archive, const std::vector<ZipEntry>& entries) {
  std::ofstream out(archive, std::ios::binary | std::ios::trunc);
  if (!out) return invalidInput("cannot write '" + archive.string() + "'");
  std::vector<Written> written;
  uint64_t offset = 0;
  for (const ZipEntry& e : entries) {
    std::ifstream in(e.file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return failure("cannot read '" + e.file.string() + "'");
    struct stat st{};
    if (stat(e.file.c_str(), &st) != 0) return failure("cannot read '" + e.file.string() + "'");
    if (bytes.size() >= 0xffffffffu || offset >= 0xffffffffu)
      return invalidInput("'" + e.file.string() + "' makes the zip 4 GiB or more, which this writer does not support");
    Written w{e.name, crc32(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())), uint32_t(bytes.size()), uint32_t(offset), uint32_t(st.st_mode & 0777)};
    std::string header;
    put32(header, 0x04034b50);
    putCommon(header, w);
    header += w.name;
    out << header << bytes;
    offset += header.size() + bytes.size();
    written.push_back(std::move(w));
  }
  std::string central;
  for (const Written& w : written) {
    put32(central, 0x02014b50);
    put16(central, (3 << 8) | 20);  // made by: Unix, so the external attributes hold the mode
    putCommon(central, w);
    put16(central, 0);  // comment length
    put16(central, 0);  // disk number
    put16(central, 0);  // internal attributes
    put32(central, (0100000u | w.mode) << 16);  // a regular file with its permissions
    put32(central, w.offset);
    central += w.name;
  }
  std::string end;
  put32(end, 0x06054b50);
  put16(end, 0);
  put16(end, 0);
  put16(end, uint32_t(written.size()));
  put16(end, uint32_t(written.size()));
  put32(end, uint32_t(central.size()));
  put32(end, uint32_t(offset));
  put16(end, 0);
  out << central << end;
  out.close();
  if (!out) return failure("cannot write '" + archive.string() + "'");
  return Ok{};
}

std::vector<ZipEntry> zipEntriesBelow(const std::filesystem::path& root) {
  std::vector<ZipEntry> entries;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(root, ec); !ec && it != std::filesystem::end(it); it.increment(ec))
    if (it->is_regular_file(ec)) entries.push_back({it->path(), it->path().lexically_relative(root).generic_string()});
  std::sort(entries.begin(), entries.end(), [](const ZipEntry& a, const ZipEntry& b) { return a.name < b.name; });
  return entries;
}

}  // namespace tilescope::cli
