// Views: how a kernel's memory accesses record themselves.
//
// A kernel is written as the book prints it (`float* M`, `__shared__ float Mds[T][T]`,
// `Mds[ty][tx] = M[Row*Width + ph*TILE_WIDTH + tx];`). The declaration rewrite
// (kernels/rewrite) turns only its declarations into views: pointer parameters become
// GlobalView, `__shared__` arrays SharedView, local pointers aliases of them. The
// statements are untouched; an element access through a view returns an ElementRef,
// whose conversion to a value records a read and whose assignment records a write. So the
// trace holds the element the code really touched, with the line of the subscript
// (captured by Subscript's converting constructor), and cannot disagree with the code.
//
// The idea is std::mdspan's accessor policy cut down to a matmul kernel: what an element
// access does is decided by the view, not by the kernel text. The GPU's plain build
// compiles the original text, so views cost nothing there; the traced GPU build and the
// emulator compile the rewritten text with these views.
//
// Recording merges what the book calls a load: a global read immediately followed, in the
// same thread, by a shared write of the same bits is one Load event with both the global
// element and the shared slot. Everything else is one event per access. Phases and k
// steps are not recorded here: the decoder derives them from barriers and the order of
// each thread's accesses (kernels/trace/step_rules.h).
#pragma once
#include "kernels/std_int.h"
#if !defined(__CUDACC_RTC__)  // NVRTC declares memcpy itself and has no <cstring>
#include <cstring>
#endif

#include "kernels/portable.h"
#include "kernels/trace/trace_event.h"
#include "kernels/trace/trace_sink.h"

namespace tilescope {

// A pointer a kernel must not be able to take out of a view. A view is a plain struct in the
// kernel's frame, so `*(float**)&M` or a memcpy of it reads its bytes: were the matrix's address
// among them, the kernel could compute P through it unrecorded (or rewrite its own events through
// the sink's). So no view, site or sink copy holds an address as it is: each is stored XOR a
// secret that lives outside every view (on the emulator a value drawn when the kernel's object is
// loaded, from its load address and the clock; in the traced GPU build 0, where the lab's source
// check is the guard), and never as a view's first member. Reading a view's bytes gives a number
// that is no address; only the views' own code, which knows where the secret is, turns it back.
#if !defined(__CUDACC__)
namespace hidden_detail {
// Where the stack and the object were loaded (both randomised per process) and the cycle
// counter, mixed; odd bits everywhere, so no pointer survives it unchanged. Calls nothing.
inline unsigned long long drawSecret() {
  volatile unsigned char local = 0;
  unsigned long long s = (unsigned long long)&local * 0x9E3779B97F4A7C15ull;
  s ^= (unsigned long long)&drawSecret * 0xC2B2AE3D27D4EB4Full;
#if defined(__x86_64__) || defined(__i386__)
  s ^= __builtin_ia32_rdtsc() * 0x165667B19E3779F9ull;
#endif
  return s | 1;
}
inline const unsigned long long kSecret = drawSecret();
}  // namespace hidden_detail
#endif
HOST_DEVICE unsigned long long pointerSecret() {
#if defined(__CUDACC__)
  return 0;
#else
  return hidden_detail::kSecret;
#endif
}
template <class T>
class Hidden {
 public:
  HOST_DEVICE Hidden(T* p = nullptr) : bits_((unsigned long long)p ^ pointerSecret()) {}
  HOST_DEVICE T* get() const { return (T*)(bits_ ^ pointerSecret()); }
  HOST_DEVICE T* operator->() const { return get(); }
  HOST_DEVICE explicit operator bool() const { return get() != nullptr; }
  HOST_DEVICE unsigned long long bits() const { return bits_; }
  HOST_DEVICE static Hidden fromBits(unsigned long long bits) {
    Hidden h;
    h.bits_ = bits;
    return h;
  }

 private:
  unsigned long long bits_;
};

// An index as written in a subscript, with the source line of that subscript. The default
// argument is evaluated where the conversion happens: at the subscript, by g++ and nvcc.
// (Not a template: nvcc evaluates __builtin_LINE() in a constructor template's default
// argument at the template's own line, so each index type gets its own constructor.)
struct Subscript {
  long long value;
  int line;
  HOST_DEVICE constexpr Subscript(int v, int line = __builtin_LINE()) : value(v), line(line) {}
  HOST_DEVICE constexpr Subscript(unsigned v, int line = __builtin_LINE()) : value(v), line(line) {}
  HOST_DEVICE constexpr Subscript(long v, int line = __builtin_LINE()) : value(v), line(line) {}
  HOST_DEVICE constexpr Subscript(unsigned long v, int line = __builtin_LINE()) : value((long long)v), line(line) {}
  HOST_DEVICE constexpr Subscript(long long v, int line = __builtin_LINE()) : value(v), line(line) {}
  HOST_DEVICE constexpr Subscript(unsigned long long v, int line = __builtin_LINE())
      : value((long long)v), line(line) {}
};

// One thread's recorder: where its events go, and the one global read that may still merge
// with a shared write into a load. Constructed at the top of every traced kernel body.
class Recorder {
 public:
  HOST_DEVICE explicit Recorder(const TraceSink& sink) : sink_(sink) {
    if (!sink_.slots) return;
    const unsigned long long threadsPerBlock = (unsigned long long)blockDim.x * blockDim.y;
    const unsigned long long block = (unsigned long long)blockIdx.y * gridDim.x + blockIdx.x;
    const unsigned long long thread = block * threadsPerBlock + threadIdx.y * blockDim.x + threadIdx.x;
    first_ = sink_.slots + thread * sink_.slotsPerThread;
#if !defined(__CUDACC__)
    // On the emulator blockIdx and threadIdx are the running fiber's context, behind a
    // thread-local pointer: read once here, not four times per event.
    where_ = {uint16_t(blockIdx.x), uint16_t(blockIdx.y), uint16_t(threadIdx.x), uint16_t(threadIdx.y)};
#endif
  }

  // A read or write of `width` (1, or 4 for a 128-bit access) consecutive elements from
  // element `index` of global matrix `role`; `values` holds them.
  HOST_DEVICE void global(MatrixRole role, bool write, long long index, const float* values, int width, int line) {
    Event* e = next();
    if (!e) return;
    if (role == MatrixRole::Other) {  // the workspace: an array of its own, never staged into shared memory
      fill(*e, write ? Op::StoreW : Op::LoadW, line, values[0]);
      e->globalRow = 0;
      e->globalCol = int32_t(index);
      e->flags = uint8_t(kInBounds | (width == 4 ? kWide : 0));
      return;
    }
    const int cols = sink_.colsOf(role) > 0 ? sink_.colsOf(role) : 1, rows = sink_.rowsOf(role);
    const long long row = floorDiv(index, cols);
    fill(*e, write ? Op::StoreP : (role == MatrixRole::N ? Op::LoadN : Op::LoadM), line, values[0]);
    e->globalRow = int32_t(row);
    e->globalCol = int32_t(index - row * cols);
    e->flags = uint8_t(((row >= 0 && row < rows) ? kInBounds : 0) | (width == 4 ? kWide : 0));
    if (write || role == MatrixRole::P) return;
    pending_ = e;
    Staged& s = staged_[stagedNext_];
    stagedNext_ = (stagedNext_ + 1) % kStagedReads;
    s.event = e;
    s.width = uint8_t(width);
    s.unused = uint8_t((1u << width) - 1u);
    for (int i = 0; i < width; ++i) s.bits[i] = bitsOf(values[i]);
  }
  HOST_DEVICE void global(MatrixRole role, bool write, long long index, float value, int line) {
    global(role, write, index, &value, 1, line);
  }

  // A read or write of `width` consecutive elements from element `index` (counted from the
  // start of the view) of shared array `array`, whose rows are `rowLength` elements long.
  // `inBounds`: inside its array.
  HOST_DEVICE void shared(int array, bool write, long long index, int rowLength, const float* values, int width,
                          bool inBounds, int line) {
    if (!sink_.slots) return;
    const SharedArrayFacts& facts = sink_.sharedArray(array);
    // The slot's row and column in tile terms; an array with no known row length is one row.
    const int stride = facts.rowStride > 0 ? facts.rowStride : rowLength;
    const long long slotRowWide = stride > 0 ? floorDiv(index, stride) : 0;
    const int16_t slotRow = int16_t(slotRowWide);
    const int16_t slotCol = int16_t(index - slotRowWide * (stride > 0 ? stride : 0));
    if (write && mergeLoad(values, width, facts, slotRow, slotCol)) return;
    const bool ofN = facts.matrix == MatrixRole::N;
    const Staged* from = nullptr;
    int element = 0;
    if (write) from = stagedSource(values, width, element);
    Event* e = next();
    if (!e) return;
    fill(*e, write ? (ofN ? Op::LoadN : Op::LoadM) : (ofN ? Op::ReadN : Op::ReadM), line, values[0]);
    const uint8_t wide = width == 4 ? kWide : 0;
    if (from) {
      // Staged: the value was read from global memory earlier, into a register.
      from->event->flags |= kStagedRead;
      e->flags = uint8_t((from->event->flags & kInBounds) | kStagedWrite | wide);
      e->globalRow = from->event->globalRow;
      e->globalCol = from->event->globalCol + element;
    } else {
      // A shared write that no global read fed: a boundary check filling the slot itself.
      e->flags = uint8_t((inBounds ? kInBounds : 0) | (write ? kZeroFill : 0) | wide);
    }
    e->sharedRow = slotRow;
    e->sharedCol = slotCol;
  }
  HOST_DEVICE void shared(int array, bool write, long long index, int rowLength, float value, bool inBounds,
                          int line) {
    shared(array, write, index, rowLength, &value, 1, inBounds, line);
  }

  // A tensor-map copy into shared array `array` from element `index` of the view (rows of
  // `rowLength` elements): one event for the whole box (trace_event.h, Op::CopyM).
  HOST_DEVICE void copy(MatrixRole role, int array, long long index, int rowLength, int32_t boxRow, int32_t boxCol,
                        bool boxInBounds, unsigned bytes, int line) {
    Event* e = next();
    if (!e) return;
    fill(*e, role == MatrixRole::N ? Op::CopyN : Op::CopyM, line, float(bytes));
    const int stride = sink_.sharedArray(array).rowStride > 0 ? sink_.sharedArray(array).rowStride : rowLength;
    const long long row = stride > 0 ? floorDiv(index, stride) : 0;
    e->sharedRow = int16_t(row);
    e->sharedCol = int16_t(index - row * (stride > 0 ? stride : 0));
    e->globalRow = boxRow;
    e->globalCol = boxCol;
    e->flags = boxInBounds ? kInBounds : kZeroFill;
  }
  // An mbarrier operation on element `index` of shared array `array` (trace_event.h).
  HOST_DEVICE void mbarrier(Op op, int array, long long index, float value, int line) {
    Event* e = next();
    if (!e) return;
    fill(*e, op, line, value);
    e->sharedRow = int16_t(index);
    e->sharedCol = int16_t(array);
  }

  // One element of a lane's tensor-core fragment (Op::MmaA, MmaB, MmaC: trace_event.h): its row
  // and column in the MMA's operand and its value.
  HOST_DEVICE void fragment(Op op, int row, int col, float value, int line) {
    Event* e = next();
    if (!e) return;
    fill(*e, op, line, value);
    e->sharedRow = int16_t(row);
    e->sharedCol = int16_t(col);
  }

  HOST_DEVICE void barrier(int line) {
    // Values staged before a barrier are stored before it in every kernel here: a match
    // across it would be a coincidence of bits.
    for (Staged& s : staged_) s.unused = 0;
    Event* e = next();
    if (!e) return;
    fill(*e, Op::Barrier, line, 0.0f);
    const uint64_t clock = currentClock();
    e->globalRow = int32_t(clock >> 32);
    e->globalCol = int32_t(clock & 0xffffffffu);
  }

 private:
  HOST_DEVICE static long long floorDiv(long long a, long long b) {
#if !defined(__CUDACC__)
    // Every shared access divides by its row length and every global one by its matrix's
    // width: on the CPU a 64-bit division costs tens of cycles. A power of two (every tile
    // width) is a shift, which rounds toward minus infinity as floor division does; other
    // non-negative operands that fit take the 32-bit division, several times cheaper.
    if (b > 0 && (b & (b - 1)) == 0) return a >> __builtin_ctzll((unsigned long long)b);
    if (a >= 0 && b > 0 && a <= 0x7fffffffLL && b <= 0x7fffffffLL) return (long long)(uint32_t(a) / uint32_t(b));
#endif
    const long long q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  HOST_DEVICE static uint32_t bitsOf(float v) {
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
  }
  HOST_DEVICE static uint64_t currentClock() {
#if defined(__CUDA_ARCH__)
    return uint64_t(clock64());
#elif defined(__CUDACC__)
    return 0;  // nvcc's host pass: never executed
#else
    return emu::logicalClock();
#endif
  }

  // The previous access of this thread was a global read of the same bits and width: it was
  // a load into shared memory. One event then says both where the value came from and where
  // it went.
  HOST_DEVICE bool mergeLoad(const float* values, int width, const SharedArrayFacts& facts, int16_t slotRow,
                             int16_t slotCol) {
    Event* e = pending_;
    pending_ = nullptr;
    if (!e || eventWidth(e->flags) != width) return false;
    Staged* s = stagedEntry(e);
    for (int i = 0; i < width; ++i)
      if (!s || s->bits[i] != bitsOf(values[i])) return false;
    s->unused = 0;
    e->sharedRow = slotRow;
    e->sharedCol = slotCol;
    // Fig. 5.11: a tile row is read from one matrix row, slot column c from the row's
    // element c of the tile. A column past the row's end lands in the next row of the
    // allocation; report it as the element the code meant: its row, a column past the end.
    if (facts.tileRowIsMatrixRow) {
      const int cols = sink_.colsOf(e->op == Op::LoadN ? MatrixRole::N : MatrixRole::M);
      const long long index = (long long)e->globalRow * cols + e->globalCol;
      const long long meantRow = floorDiv(index - slotCol, cols);
      if (meantRow != e->globalRow) {
        e->globalRow = int32_t(meantRow);
        e->globalCol = int32_t(index - meantRow * cols);
        e->flags = uint8_t(e->flags & ~kInBounds);
      }
    }
    return true;
  }

  // A global read still in a register whose value (all four, for a 128-bit write) this
  // shared write stores: the newest unused match. `element`: which of its elements.
  struct Staged {
    Event* event = nullptr;
    uint32_t bits[4] = {};
    uint8_t width = 0;
    uint8_t unused = 0;  // bit i: element i not yet stored to shared memory
  };
  static constexpr unsigned kStagedReads = 8;
  HOST_DEVICE Staged* stagedEntry(const Event* e) {
    for (Staged& s : staged_)
      if (s.event == e && s.unused) return &s;
    return nullptr;
  }
  HOST_DEVICE const Staged* stagedSource(const float* values, int width, int& element) {
    for (unsigned back = 1; back <= kStagedReads; ++back) {
      Staged& s = staged_[(stagedNext_ + kStagedReads - back) % kStagedReads];
      if (!s.unused) continue;
      if (width == 4) {
        bool same = s.width == 4 && s.unused == 0xF;
        for (int i = 0; i < 4 && same; ++i) same = s.bits[i] == bitsOf(values[i]);
        if (!same) continue;
        s.unused = 0;
        element = 0;
        return &s;
      }
      for (int i = 0; i < s.width; ++i)
        if ((s.unused >> i & 1u) && s.bits[i] == bitsOf(values[0])) {
          s.unused = uint8_t(s.unused & ~(1u << i));
          element = i;
          return &s;
        }
    }
    return nullptr;
  }

  HOST_DEVICE Event* next() {
    pending_ = nullptr;
    if (!sink_.slots) return nullptr;
    if (count_ >= sink_.slotsPerThread) {
      *sink_.overflow = 1;  // every overflowing thread writes the same value: benign
      return nullptr;
    }
    return first_ + count_++;
  }

  HOST_DEVICE void fill(Event& e, Op op, int line, float value) const {
    e.op = op;
    e.flags = kInBounds;
    e.line = uint16_t(line);
#if defined(__CUDACC__)  // the GPU's special registers: nothing to keep
    e.blockX = uint16_t(blockIdx.x);
    e.blockY = uint16_t(blockIdx.y);
    e.threadX = uint16_t(threadIdx.x);
    e.threadY = uint16_t(threadIdx.y);
#else
    e.blockX = where_.blockX;
    e.blockY = where_.blockY;
    e.threadX = where_.threadX;
    e.threadY = where_.threadY;
#endif
    e.phase = 0;
    e.k = -1;
    e.globalRow = -1;
    e.globalCol = -1;
    e.sharedRow = -1;
    e.sharedCol = -1;
    e.value = value;
  }

  TraceSink sink_;
  Event* first_ = nullptr;
  Event* pending_ = nullptr;  // a global read that a shared write may turn into a load
  Staged staged_[kStagedReads];  // the last global reads, while their values may be stored
  unsigned stagedNext_ = 0;
  unsigned count_ = 0;
#if !defined(__CUDACC__)
  struct Where {
    uint16_t blockX, blockY, threadX, threadY;
  } where_{};  // the thread's coordinates, as every event records them
#endif
};

// What an element access returns: reading it (conversion to T) records a read, assigning
// to it records a write. `Site` knows the element: its address (checked on the emulator,
// where an access outside its array is reported and redirected) and how to record it.
template <class T, class Site>
struct ElementAddress;

template <class T, class Site>
class ElementRef {
 public:
  HOST_DEVICE explicit ElementRef(const Site& site) : site_(site) {}
  HOST_DEVICE operator T() const {
    const T v = *site_.address(false);
    site_.record(false, float(v));
    return v;
  }
  HOST_DEVICE const ElementRef& operator=(T v) const {
    *site_.address(true) = v;
    site_.record(true, float(v));
    return *this;
  }
  HOST_DEVICE const ElementRef& operator=(const ElementRef& other) const { return *this = T(other); }
  HOST_DEVICE ElementAddress<T, Site> operator&() const { return ElementAddress<T, Site>{site_}; }
  template <class U>
  HOST_DEVICE const ElementRef& operator+=(U v) const { return *this = T(T(*this) + v); }
  template <class U>
  HOST_DEVICE const ElementRef& operator-=(U v) const { return *this = T(T(*this) - v); }
  template <class U>
  HOST_DEVICE const ElementRef& operator*=(U v) const { return *this = T(T(*this) * v); }
  template <class U>
  HOST_DEVICE const ElementRef& operator/=(U v) const { return *this = T(T(*this) / v); }

 private:
  Site site_;
};

// `&M[i]`, `&Bs[r][c]`: which element, for a 128-bit access or an asynchronous copy.
template <class T, class Site>
struct ElementAddress {
  Site site;
};

// Four consecutive elements accessed as one 128-bit value (a float4): the rewrite turns
// `reinterpret_cast<float4*>(&M[i])` into vectorCast<float4>(&M[i]), and an access through it
// records one event of four elements (kWide).
template <class V, class T, class Site>
class VectorRef {
 public:
  HOST_DEVICE explicit VectorRef(const Site& site) : site_(site) {}
  HOST_DEVICE operator V() const {
    T v[4];
    for (int i = 0; i < 4; ++i) v[i] = *site_.shifted(i).address(false);
    site_.recordWide(false, v);
    return V{v[0], v[1], v[2], v[3]};
  }
  HOST_DEVICE const VectorRef& operator=(const V& x) const {
    const T v[4] = {x.x, x.y, x.z, x.w};
    for (int i = 0; i < 4; ++i) *site_.shifted(i).address(true) = v[i];
    site_.recordWide(true, v);
    return *this;
  }
  HOST_DEVICE const VectorRef& operator=(const VectorRef& other) const { return *this = V(other); }

 private:
  Site site_;
};

template <class V, class T, class Site>
struct VectorPointer {
  Site site;
  HOST_DEVICE VectorRef<V, T, Site> operator*() const { return VectorRef<V, T, Site>(site); }
  HOST_DEVICE VectorRef<V, T, Site> operator[](Subscript i) const {
    return VectorRef<V, T, Site>(site.shifted(4 * i.value));
  }
};

template <class V, class T, class Site>
HOST_DEVICE VectorPointer<V, T, Site> vectorCast(const ElementAddress<T, Site>& a) {
  return VectorPointer<V, T, Site>{a.site};
}
// Anything else (a register array) is cast as written.
template <class V, class T>
HOST_DEVICE V* vectorCast(T* p) {
  return reinterpret_cast<V*>(p);
}
template <class V, class T>
HOST_DEVICE const V* vectorCast(const T* p) {
  return reinterpret_cast<const V*>(p);
}

// cp.async through <cuda_pipeline.h>: copied at once where traced (the kernel waits before
// reading, so the trace is what a thread observes), and recorded as a load.
template <class T, class DstSite, class SrcSite>
HOST_DEVICE void __pipeline_memcpy_async(const ElementAddress<T, DstSite>& dst, const ElementAddress<T, SrcSite>& src,
                                         unsigned long bytes, unsigned long = 0) {
  if (bytes == 16) {
    VectorRef<float4, T, DstSite>(dst.site) = float4(VectorRef<float4, T, SrcSite>(src.site));
  } else {
    ElementRef<T, DstSite>(dst.site) = T(ElementRef<T, SrcSite>(src.site));
  }
}

}  // namespace tilescope

#include "kernels/trace/views_global.h"
#include "kernels/trace/views_shared.h"
#include "kernels/trace/views_tma.h"
// The tensor cores' fragments: the built-in rungs only. The lab's NVRTC compile of a student's
// kernel (app/lab, embedded headers) has no MMA and no <cstring> for the TF32 rounding.
#if !defined(__CUDACC_RTC__)
#include "kernels/trace/views_mma.h"
#include "kernels/trace/views_wgmma.h"
#endif
