// How many times each element of M and N has been loaded from global memory at a cursor (by a
// thread, or by the copy engine for the thread that asked: a copy counts every element of its box),
// over the whole grid (all blocks in lockstep, as the timeline draws them): the Matrices
// panel's load-count shading, where the naive kernel's elements go dark (loaded once per
// output they feed) and the tiled kernel's stay pale (T times fewer).
//
// The grid's global loads are sorted once by (step, thread), the order in which the cursor
// passes them, so the loads done at a cursor are a prefix of that list; the counts at the
// last cursor asked for are kept and moved by the difference, so playing costs only the
// loads of the steps passed.
#pragma once
#include <cstdint>
#include <vector>

#include "core/timeline/timeline.h"

namespace tilescope {

struct TileBox {
  bool isN = false;      // a tile of N (else M)
  int row0, col0, row1, col1;  // the loaded elements' bounding box, inclusive
  bool operator==(const TileBox&) const = default;
};

class LoadIndex {
 public:
  static LoadIndex build(const Timeline& timeline);
  // Loads per element at c, row-major: M is j x k, N is k x l. Cheap for nearby cursors.
  // Not thread-safe (it keeps the last answer): the UI thread's.
  const std::vector<uint32_t>& mCounts(Cursor c) const { return moveTo(c).m; }
  const std::vector<uint32_t>& nCounts(Cursor c) const { return moveTo(c).n; }
  // Each block's tiles loaded in step s (bounding boxes, duplicates removed).
  std::vector<TileBox> tilesOfStep(int s) const;
  std::size_t loads() const { return keys_.size(); }

 private:
  struct Counts {
    std::vector<uint32_t> m, n;
    std::size_t done = 0;  // how many of the sorted loads are counted
  };
  const Counts& moveTo(Cursor c) const;
  std::size_t doneAt(Cursor c) const;
  int threadsPerBlock_ = 1;
  int mCols_ = 0, nCols_ = 0, blockCount_ = 0;
  std::vector<uint64_t> keys_;      // step * threadsPerBlock + thread, ascending
  std::vector<uint32_t> elements_;  // row * cols + col, the top bit set for N
  std::vector<uint32_t> blocks_;    // the loading block
  mutable Counts counts_;
};

}  // namespace tilescope
