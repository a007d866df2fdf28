// SharedView: a __shared__ array as a traced kernel sees it (the rewrite of
// `__shared__ float Mds[T][T]`, `extern __shared__ float Mds_Nds[]` and of local pointers
// into them). Part of views.h; include that.
//
// The storage is the block's: on the GPU the real __shared__ array, on the emulator the
// block's arena (emu::blockShared), fresh and NaN-filled for every block. A view adds what
// the recorder needs: which array (its number in declaration order), where in it, and the
// line of the subscript. Indexing a 2-D array checks each subscript against its extent, so
// Mds[0][T] is reported even though it lands inside the array (the shared twin of fig.
// 5.11's wrap); only an access outside the whole array is redirected, on the emulator.
#pragma once

namespace tilescope {

// Its pointers are Hidden (views.h), as a GlobalSite's are.
template <class T>
struct SharedSite {
  long long storageCount;
  Hidden<T> storage;  // the whole array (the extern array for views into it)
  long long position;  // element index into storage
  long long index;     // element index from the view's own start (what the slot is derived from)
  int rowLength;       // the declared inner extent of a 2-D array, else 0
  bool subscriptsInBounds;
  int array;
  const char* name;
  Hidden<Recorder> recorder;
  int line;

  HOST_DEVICE bool inBounds() const { return subscriptsInBounds && position >= 0 && position < storageCount; }
  HOST_DEVICE T* address(bool write) const {
#if defined(__CUDACC__)
    (void)write;
    return storage.get() + position;
#else
    if (position >= 0 && position < storageCount) return storage.get() + position;
    return static_cast<T*>(emu::outOfBoundsAccess(name, position, storageCount, write, line, sizeof(T)));
#endif
  }
  HOST_DEVICE void record(bool write, float value) const {
    if (recorder) recorder->shared(array, write, index, rowLength, value, inBounds(), line);
  }
  HOST_DEVICE void recordWide(bool write, const T* values) const {
    float v[4] = {float(values[0]), float(values[1]), float(values[2]), float(values[3])};
    const bool rowFits = rowLength == 0 || (index % rowLength) + 3 < rowLength;
    if (recorder) recorder->shared(array, write, index, rowLength, v, 4, inBounds() && rowFits, line);
  }
  HOST_DEVICE SharedSite shifted(long long n) const {
    SharedSite s = *this;
    s.position += n;
    s.index += n;
    return s;
  }
};

// Rank 2: `Mds[ty]` is a row; rank 1: `Mds[ty][tx]` or `Nds[i]` is an element.
template <class T, int Rank>
class SharedView {
  static_assert(Rank == 1 || Rank == 2, "shared arrays of one or two dimensions");

 public:
  HOST_DEVICE SharedView(T* storage, long long storageCount, long long offset, long long rows, int rowLength, int array,
                         const char* name, Recorder* recorder)
      : storageCount_(storageCount), storage_(storage), offset_(offset), rows_(rows), rowLength_(rowLength),
        array_(array), name_(name), recorder_(recorder) {}

  HOST_DEVICE auto operator[](Subscript i) const {
    if constexpr (Rank == 2) {
      SharedView<T, 1> row(storage_.get(), storageCount_, offset_ + i.value * rowLength_, rowLength_, rowLength_, array_,
                           name_, recorder_.get());
      row.rowIndex_ = i.value;
      row.rowInBounds_ = i.value >= 0 && i.value < rows_;
      return row;
    } else {
      const bool colInBounds = rowIndex_ < 0 || (i.value >= 0 && i.value < rowLength_);
      const long long index = rowIndex_ < 0 ? offset_ - viewStart_ + i.value : rowIndex_ * rowLength_ + i.value;
      return ElementRef<T, SharedSite<T>>(SharedSite<T>{storageCount_, storage_, offset_ + i.value, index,
                                                        rowIndex_ < 0 ? 0 : rowLength_, rowInBounds_ && colInBounds,
                                                        array_, name_, recorder_, i.line});
    }
  }
  // `Mds_Nds + Mds_sz` (fig. 5.14): a view starting further into the same storage.
  HOST_DEVICE SharedView operator+(long long n) const {
    static_assert(Rank == 1, "pointer arithmetic on a one-dimensional shared array");
    SharedView v = *this;
    v.offset_ += n;
    v.viewStart_ += n;
    return v;
  }
  // A local pointer declared from it (`float* Nds = Mds_Nds + Mds_sz;`) is an array of its
  // own for the trace: its number and name, its elements counted from where it starts.
  HOST_DEVICE SharedView renamed(int array, const char* name) const {
    SharedView v = *this;
    v.array_ = array;
    v.name_ = name;
    return v;
  }

 private:
  template <class, int>
  friend class SharedView;
  template <class U>
  friend HOST_DEVICE SharedView<U, 1> alignedTo1024(const SharedView<U, 1>& v);
  // Where the view starts in memory (for alignment: views_tma.h's alignedTo1024): a raw
  // pointer no kernel may hold, since its accesses would go unrecorded.
  HOST_DEVICE T* first() const { return storage_.get() + offset_; }
  // No address first, none as it is (Hidden): a cast of the view's bytes finds none.
  long long storageCount_;
  Hidden<T> storage_;
  long long offset_;      // where this view (or this row) starts in storage
  long long viewStart_ = 0;  // where the named view starts (rank 1 views made by + or renamed)
  long long rows_;
  int rowLength_;
  long long rowIndex_ = -1;  // for a row of a 2-D array
  bool rowInBounds_ = true;
  int array_;
  const char* name_;
  Hidden<Recorder> recorder_;
};

template <class T, int Rank>
HOST_DEVICE SharedView<T, Rank> alias(const SharedView<T, Rank>& v, int array, const char* name) {
  return v.renamed(array, name);
}

// The views the rewritten declarations build over the block's storage.
template <class T, unsigned long long Rows, unsigned long long Cols>
HOST_DEVICE SharedView<T, 2> sharedArray(T (&storage)[Rows][Cols], int array, const char* name, Recorder& r) {
  return SharedView<T, 2>(&storage[0][0], (long long)(Rows * Cols), 0, (long long)Rows, int(Cols), array, name, &r);
}
template <class T, unsigned long long Count>
HOST_DEVICE SharedView<T, 1> sharedArray(T (&storage)[Count], int array, const char* name, Recorder& r) {
  return SharedView<T, 1>(storage, (long long)Count, 0, 1, 0, array, name, &r);
}
template <class T>
HOST_DEVICE SharedView<T, 1> sharedArray(T* storage, long long count, int array, const char* name, Recorder& r) {
  return SharedView<T, 1>(storage, count, 0, 1, 0, array, name, &r);
}

}  // namespace tilescope
