// The lab's compile cache and its scratch directories. The cache belongs to the app: created
// owner-only (0700), refused when another user owns it or others may write it, never
// writable by a lab child (the children write only their own scratch directory, under
// Landlock), and every compiled entry carries its content hash, checked before it is used.
// A child never loads from the cache: the entry's checked bytes are copied into its scratch
// directory, so what runs is exactly what was hashed.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "kernels/result.h"

namespace tilescope::lab {

// `requested`, else $TILESCOPE_LAB_CACHE, else $XDG_CACHE_HOME/tilescope/lab, else
// ~/.cache/tilescope/lab: created 0700 and checked. Scratch directories left by a lab
// process that no longer runs are removed.
Result<std::filesystem::path> labCacheDirectory(const std::string& requested);

// A directory of its own for one child (0700, under the cache, named run-PID-... after the lab
// process that made it, so that the next run removes it when that process is gone, a
// SIGKILLed grader's included), removed with everything in it
// when this object goes: on every return path, and on an interrupt (the CLI's handler lets the
// run unwind).
class Scratch {
 public:
  static Result<Scratch> create(const std::filesystem::path& cache, std::string_view what);
  Scratch(Scratch&& other) noexcept : dir_(std::move(other.dir_)) { other.dir_.clear(); }
  Scratch& operator=(Scratch&&) = delete;
  ~Scratch();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  explicit Scratch(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
};

// 64-bit FNV-1a, the cache's hash of names and contents.
uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull);
std::string hex(uint64_t v);

// Every file the lab opens is opened close-on-exec, so no child inherits it (another
// student's source, a cache entry being written). The whole file, or empty when unreadable.
std::string readFileBytes(const std::filesystem::path& file);
// The whole file when it holds at most `maxBytes` (its size is checked before anything is
// read); InvalidInput naming both sizes when it holds more. A symbolic link is not followed and
// anything but a regular file (a fifo, a device, a folder) is refused: the check is made on the
// open descriptor itself, so a file swapped for a link after a folder was scanned is refused too.
Result<std::string> readFileLimited(const std::filesystem::path& file, uint64_t maxBytes);
// Written 0600, never through a symbolic link.
Status writeFileBytes(const std::filesystem::path& file, std::string_view bytes);

// Removes `root` and everything under it whatever a child did to it: permissions taken away
// (each directory is made 0700 as it is entered), a tree deeper than the open-file limit (one
// directory open at a time, no recursion), symbolic links (removed, never followed). False
// when something could not be removed.
bool removeTree(const std::filesystem::path& root);

// `bytes` as cache entry `entry` (and its hash beside it, ENTRY.sum), written under temporary
// names and renamed into place: a parallel run sees all of it or nothing. Then the cache is
// trimmed to kCacheMaxBytes (trimCache).
Status storeInCache(const std::filesystem::path& entry, std::string_view bytes);
// The bytes of `entry` when its hash matches them; empty when it is missing, and when it does
// not match (the entry is then removed, so the next run recompiles it). An entry loaded is
// marked used now (its modification time), which keeps it from being trimmed first.
std::string loadFromCache(const std::filesystem::path& entry);

// The compile cache's bound: what a class leaves behind is otherwise kept for good (one kernel
// with a 60 MiB initialised __device__ array is a 60 MiB entry; a class of such files, 2 GB).
inline constexpr uint64_t kCacheMaxBytes = uint64_t(1) << 30;  // 1 GiB
// Removes the least recently used entries of `cache` (each with its .sum), oldest first, until
// its entries hold at most `maxBytes`. Entries used less than `spare` ago stay even over the
// bound (a parallel run may be about to copy one into its scratch). Folders (the embedded
// headers, a run's scratch) and files being written are not entries and stay.
void trimCache(const std::filesystem::path& cache, uint64_t maxBytes,
               std::chrono::seconds spare = std::chrono::seconds(60));

}  // namespace tilescope::lab
