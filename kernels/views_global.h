// GlobalView: a global matrix as a traced kernel sees it (the rewrite of `float* M`).
// Part of views.h; include that.
#pragma once

namespace tilescope {

template <class T>
class GlobalView;
struct TensorMapView;  // views_tma.h: a tensor map made over a view of a whole matrix
enum class TileSwizzle : unsigned char;  // tensor_map_rules.h

// The element `index` of a global matrix, counted from the matrix's first element.
template <class T>
struct GlobalSite {
  T* base;  // the matrix's first element
  long long index, count;
  MatrixRole role;
  Recorder* recorder;
  int line;

  HOST_DEVICE T* address(bool write) const {
#if defined(__CUDACC__)
    (void)write;
    return base + index;  // the GPU checks nothing: neither does its trace
#else
    if (index >= 0 && index < count) return base + index;
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
      : base_(base), count_(count), role_(role), sink_(sink) {}
  // `&P[i]` where a pointer is wanted (`float* p = &P[i];`, a __device__ helper's `float*`
  // parameter): a view of the same matrix from element i, so every access through it is still
  // recorded as an element of P and bounds-checked against all of P. A raw pointer would hide
  // its accesses from what is graded.
  HOST_DEVICE GlobalView(const ElementAddress<T, GlobalSite<T>>& element)
      : base_(element.site.base), offset_(element.site.index), count_(element.site.count), role_(element.site.role),
        recorder_(element.site.recorder) {}

  HOST_DEVICE ElementRef<T, GlobalSite<T>> operator[](Subscript i) const {
    return ElementRef<T, GlobalSite<T>>(GlobalSite<T>{base_, offset_ + i.value, count_, role_, recorder_, i.line});
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
  friend HOST_DEVICE const TraceSink& firstSink(const V& first, const Rest&...);
  HOST_DEVICE void attach(Recorder* r) const { recorder_ = r; }
  HOST_DEVICE const TraceSink& sink() const { return sink_; }
  // Where the view starts, for a tensor map made over it (views_tma.h): a raw pointer no kernel
  // may hold, since its accesses would go unrecorded.
  friend TensorMapView tensorMapOf(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols,
                                   TileSwizzle swizzle);
  HOST_DEVICE T* data() const { return base_ + offset_; }

  T* base_ = nullptr;
  long long offset_ = 0;
  long long count_ = 0;
  MatrixRole role_ = MatrixRole::Other;
  TraceSink sink_;
  mutable Recorder* recorder_ = nullptr;
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
HOST_DEVICE const TraceSink& firstSink(const V& first, const Rest&...) {
  return first.sink();
}
template <class... Views>
HOST_DEVICE void attachAll(Recorder* r, const Views&... views) {
  (views.attach(r), ...);
}

}  // namespace tilescope
