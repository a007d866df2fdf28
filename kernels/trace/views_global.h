// GlobalView: a global matrix as a traced kernel sees it (the rewrite of `float* M`).
// Part of views.h; include that.
#pragma once

namespace tilescope {

template <class T>
class GlobalView;
struct TensorMapView;  // views_tma.h: a tensor map made over a view of a whole matrix
enum class TileSwizzle : unsigned char;  // tensor_map_rules.h

// The element `index` of a global matrix, counted from the matrix's first element.
// Its pointers are Hidden (views.h): an `&M[i]` a kernel holds gives no address away.
template <class T>
struct GlobalSite {
  long long index, count;
  Hidden<T> base;  // the matrix's first element
  MatrixRole role;
  Hidden<Recorder> recorder;
  int line;

  HOST_DEVICE T* address(bool write) const {
#if defined(__CUDACC__)
    (void)write;
    return base.get() + index;  // the GPU checks nothing: neither does its trace
#else
    if (index >= 0 && index < count) return base.get() + index;
    return static_cast<T*>(emu::outOfBoundsAccess(roleName(role), index, count, write, line, sizeof(T)));
#endif
  }
  HOST_DEVICE void record(bool write, float value) const {
    if (recorder) recorder->global(role, write, index, value, line);
  }
  HOST_DEVICE void recordWide(bool write, const T* values) const {
    float v[4] = {float(values[0]), float(values[1]), float(values[2]), float(values[3])};
    if (recorder) recorder->global(role, write, index, v, 4, line);
  }
  HOST_DEVICE GlobalSite shifted(long long n) const {
    GlobalSite s = *this;
    s.index += n;
    return s;
  }
  HOST_DEVICE static const char* roleName(MatrixRole r) {
    return r == MatrixRole::M ? "M" : r == MatrixRole::N ? "N" : r == MatrixRole::P ? "P" : "global array";
  }
};

template <class T>
class GlobalView {
 public:
  GlobalView() = default;
  // Built by the launcher: the whole matrix, its role, and the launch's sink.
  GlobalView(T* base, long long count, MatrixRole role, const TraceSink& sink)
      : count_(count), base_(base), role_(role), sink_(hiddenSink(sink)) {}
  // `&P[i]` where a pointer is wanted (`float* p = &P[i];`, a __device__ helper's `float*`
  // parameter): a view of the same matrix from element i, so every access through it is still
  // recorded as an element of P and bounds-checked against all of P. A raw pointer would hide
  // its accesses from what is graded.
  HOST_DEVICE GlobalView(const ElementAddress<T, GlobalSite<T>>& element)
      : offset_(element.site.index), count_(element.site.count), base_(element.site.base), role_(element.site.role),
        recorder_(element.site.recorder) {}

  HOST_DEVICE ElementRef<T, GlobalSite<T>> operator[](Subscript i) const {
    return ElementRef<T, GlobalSite<T>>(GlobalSite<T>{offset_ + i.value, count_, base_, role_, recorder_, i.line});
  }
  // `M + Row * Width` stays a view of M: its accesses are still elements of M.
  HOST_DEVICE GlobalView operator+(long long n) const {
    GlobalView v = *this;
    v.offset_ += n;
    return v;
  }
  HOST_DEVICE GlobalView operator-(long long n) const { return *this + (-n); }
  HOST_DEVICE MatrixRole role() const { return role_; }  // which matrix it is a view of

 private:
  // Only TILESCOPE_KERNEL_ENTRY's helpers reach the recorder and the sink: kernel code that
  // could detach a view (or take its sink) could hide accesses from what is graded.
  template <class... Views>
  friend HOST_DEVICE void attachAll(Recorder* r, const Views&... views);
  template <class V, class... Rest>
  friend HOST_DEVICE TraceSink firstSink(const V& first, const Rest&...);
  HOST_DEVICE void attach(Recorder* r) const { recorder_ = Hidden<Recorder>(r); }
  // The sink with its pointers as they are (the view keeps them Hidden, as it keeps its base).
  HOST_DEVICE TraceSink sink() const {
    TraceSink s = sink_;
    s.slots = Hidden<Event>::fromBits((unsigned long long)sink_.slots).get();
    s.overflow = Hidden<unsigned>::fromBits((unsigned long long)sink_.overflow).get();
    return s;
  }
  HOST_DEVICE static TraceSink hiddenSink(TraceSink s) {
    s.slots = (Event*)Hidden<Event>(s.slots).bits();
    s.overflow = (unsigned*)Hidden<unsigned>(s.overflow).bits();
    return s;
  }
  // Where the view starts, for a tensor map made over it (views_tma.h): a raw pointer no kernel
  // may hold, since its accesses would go unrecorded.
  friend TensorMapView tensorMapOf(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols,
                                   TileSwizzle swizzle);
  HOST_DEVICE T* data() const { return base_.get() + offset_; }

  // No address first, none as it is (Hidden): a cast of the view's bytes finds none.
  long long offset_ = 0;
  long long count_ = 0;
  Hidden<T> base_;
  MatrixRole role_ = MatrixRole::Other;
  TraceSink sink_;  // its slots and overflow hold Hidden bits (hiddenSink), not addresses
  mutable Hidden<Recorder> recorder_;
};

// A local `float* row = M + Row * Width;` keeps pointing into M.
template <class T>
HOST_DEVICE GlobalView<T> alias(const GlobalView<T>& v, int, const char*) {
  return v;
}

// A local `float* p = &P[i];`: a view of P from element i (the constructor above).
template <class T>
HOST_DEVICE GlobalView<T> alias(const ElementAddress<T, GlobalSite<T>>& element, int, const char*) {
  return GlobalView<T>(element);
}

// A local pointer to anything else (`const char* s = "..."`) stays a pointer.
template <class T>
HOST_DEVICE T* alias(T* p, int, const char*) {
  return p;
}

// TILESCOPE_KERNEL_ENTRY's helpers: the recorder takes the sink of the first view.
// (Declared friends of GlobalView above.)
template <class V, class... Rest>
HOST_DEVICE TraceSink firstSink(const V& first, const Rest&...) {
  return first.sink();
}
template <class... Views>
HOST_DEVICE void attachAll(Recorder* r, const Views&... views) {
  (views.attach(r), ...);
}

}  // namespace tilescope
