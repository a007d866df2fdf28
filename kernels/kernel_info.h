// A kernel's facts as types: what each kernel file's `struct Facts` fills in (its KernelInfo,
// the shape it derives from a launch, its shared tiles, its hand-counted resources) and the
// limits every front end checks. Plain host C++ with no functions to call: kernels/kernel_facts.h
// (the families the files build on) and kernels/catalog.h (the facts collected) both stand on it.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "kernels/kernel_list.h"

namespace tilescope {

enum class KernelId : uint8_t {
#define TILESCOPE_KERNEL_ID(id, room, file) id,
  TILESCOPE_KERNELS(TILESCOPE_KERNEL_ID)
#undef TILESCOPE_KERNEL_ID
};
#define TILESCOPE_KERNEL_COUNT(id, room, file) +1
inline constexpr int kKernelCount = 0 TILESCOPE_KERNELS(TILESCOPE_KERNEL_COUNT);
#undef TILESCOPE_KERNEL_COUNT

// How a kernel's block is shaped: T x T from the tile width, or bx x by as asked.
enum class BlockShape : uint8_t { Tile, Free };

// How the ladder sweep (app/core/timing/timing_ladder.h) launches a rung: the tile width T and the
// block bx x by it asks for; 0 leaves a field to the kernel (a rung whose tiles and block are
// fixed by its own code sets none of them).
struct LadderLaunch {
  int tile = 0;
  int blockX = 0, blockY = 0;
};

// A launch Nsight Compute profiles (scripts/gpu-analysis), as a row of tests/fixtures/ncu
// names it: kernel,j,k,l,tile,bx,by,pad. j == 0 ends a list.
struct NcuLaunch {
  short j = 0, k = 0, l = 0;
  short tile = 0, blockX = 0, blockY = 0, pad = 0;
};
// Which of Nsight Compute's shared-memory counters the model predicts for the plain kernel:
// those where the compiled code reads shared memory as the source does (none is checked where
// nvcc merges reads into wider loads).
enum class NcuShared : uint8_t {
  None,       // global counters only
  Conflicts,  // and the shared loads' bank conflicts
  All,        // and the shared loads, stores and wavefronts
};
// A launch the GPU = emulator test makes of a kernel whose shapes are its own (the ladder's
// tensor-map rungs): j x k x l at its kTilings[tiling], on `grid` persistent blocks (0: one
// block per tile). j == 0 ends a list; an empty list takes the tile-width and block spread.
struct GpuTestLaunch {
  short j = 0, k = 0, l = 0;
  short tiling = 0;
  short grid = 0;
};

// A kernel's facts, written in its file with named fields (`.tiled = true`): what the core,
// the timing sweeps, the UI and the tests derive everything about the kernel from.
struct KernelInfo {
  KernelId id;
  std::string_view name;         // as typed on the command line
  std::string_view description;  // one line
  std::string_view sourceFile;   // its file under kernels/
  bool tiled = false;                // block = tile, tile width T applies
  bool needsMultipleOfTile = false;  // correct only when every dimension is a multiple of T
  bool tileIsCompileTime = false;    // T is a template argument (instantiated for a fixed list)
  // A kernel with a mistake: the kernel it is a broken copy of, and its lines that differ
  // from it (tests/kernels check both against the two files; a race kernel, a barrier removed,
  // has none). Empty for a correct kernel. The bug gallery (app/core/teaching/bugs.cpp) takes
  // each bug's fix from here.
  std::string_view fixedTwin = {};
  std::array<short, 6> faultyLines = {};  // 0-terminated
  // Its place on the ladder from fig. 5.9 (rung 1) to cuBLAS: the faster kernels of the next
  // chapter and of the SGEMM worklogs, one idea per rung. 0: not a rung.
  int ladderRung = 0;
  // What the ladder times a rung with (ladderRung > 0): tiled is fig. 5.9 at T = 32.
  LadderLaunch ladderLaunch = {};
  // Whether the chapter's live timing sweep (and `tilescope-cli bench` by default) times it.
  bool liveSweep = false;
  // Its own run-time parameter beyond tile and block, if any: tiled-transposed's `pad`, the
  // row stride T + pad of its transposed N tile (launch_config.h checks the range).
  bool takesPad = false;
  // k and l (the row lengths of M and N, and so of P) must be multiples of this: a tensor map's
  // row stride is a multiple of 16 bytes (kernels/ladder/tensor_map_rules.h). 1: any.
  int rowsMultipleOf = 1;
  // The mantissa bits of the operands as the multiply sees them: 23 (FP32) for every kernel on
  // CUDA cores, 10 for TF32 on the tensor cores (rung 10 rounds M and N so). Below 23 the
  // verification's tolerance adds the operands' rounding (app/core/run/reference.h).
  int operandMantissaBits = 23;
  // It takes a persistent grid of G blocks (LaunchConfig::persistentBlocks, --grid-blocks,
  // `set grid-blocks`) whose blocks share the work; 0 is one block per tile.
  bool persistentGrid = false;
  // A race without a barrier: correct only where the emulator's order happens to be safe, so
  // "every correct kernel verifies" leaves it out (a bug's fixedTwin says the same for bugs).
  bool races = false;

  // ---- What the tests and the GPU scripts hold it to (written by hand in its file) ----
  // Every value a launch reads is defined (each shared slot written in the reader's phase, no
  // read past an allocation), at every shape it takes (at multiples of T where
  // needsMultipleOfTile): tests/gpu/gpu_equals_emulator_test.cpp then skips no value.
  bool textbook = false;
  // How many of tests/gpu/kernel_resources_gpu_test.cpp's launches the GPU build has of it (tile
  // widths 1, 2, 3, 4, 8, 12, 16, 24, 32, each pad where it takes one; blocks 16x16, 32x8, 64x4,
  // 32x32, 7x3; every built tiling), counted in its file.
  int gpuResourceLaunches = 0;
  // The local memory per thread (spilled registers) its plain, timed build may have at any built
  // tiling, as ptxas gives it: 0 for every kernel but one whose file says why a spilling tiling
  // is still its fastest (tests/gpu/kernel_resources_gpu_test.cpp holds the bound).
  int plainLocalBytesAllowed = 0;
  // GPU = emulator's launches where its own shapes replace the spread (0-terminated).
  std::array<GpuTestLaunch, 10> gpuTestLaunches = {};
  // Persistent grids the every-kernel test splits its tiles over besides one block per tile
  // (a persistentGrid kernel; 0-terminated).
  std::array<short, 4> testGrids = {};
  // Nsight Compute: the launches profiled (0-terminated) and the shared counters the model predicts.
  std::array<NcuLaunch, 8> ncuLaunches = {};
  NcuShared ncuShared = NcuShared::None;
};

// A kernel that computes P correctly at every shape it takes: no bug of the gallery, no race.
inline constexpr bool isCorrectKernel(const KernelInfo& k) { return k.fixedTwin.empty() && !k.races; }

// What a kernel's facts derive from a launch: the block (T x T or as asked), the phases of
// k each block walks, the trace slots one thread may fill, the dynamic shared memory, and
// what the recorder must know of its shared arrays.
struct LaunchShape {
  unsigned blockX = 1, blockY = 1;
  unsigned gridX = 0, gridY = 0;  // 0: enough blockX x blockY blocks to cover P
  int phases = 0;
  unsigned eventsPerThread = 0;
  unsigned dynamicSharedFloats = 0;
  // __shared__ arrays a kernel declares beside its dynamic tiles (rung 8's mbarriers).
  unsigned staticSharedBytes = 0;
  bool operator==(const LaunchShape&) const = default;
};

// Where a kernel keeps its tiles in shared memory, in bytes, as the analyses place them:
// the M tile at baseM with rows of strideM floats, the N tile at baseN.
struct SharedTileLayout {
  uint32_t baseM = 0, baseN = 0;
  int strideM = 0, strideN = 0;
  uint32_t bytes = 0;  // 0: the kernel uses no shared memory
};

// What a launch asks of an SM, counted by hand in the kernel's file from its declarations
// (Facts::handResources, the arithmetic in a comment), never derived from shape(): the GPU
// resource test holds the device's figures and the occupancy model to it.
struct HandResources {
  int threads = 0;             // per block
  int staticSharedBytes = 0;   // fixed-size __shared__ arrays as declared (ptxas rounds to 16 B)
  int dynamicSharedBytes = 0;  // extern __shared__, as the launch asks
};

// Limits every front end checks before launching.
inline constexpr int kWarpSize = 32;                // threads per warp on every NVIDIA GPU
inline constexpr int kMaxTileWidth = 32;            // T x T threads must fit 1024 threads per block
inline constexpr int kMaxThreadsPerBlock = 1024;    // CUDA's limit on every current GPU
inline constexpr int kMaxGridDim = 65535;
inline constexpr int kMaxAccumulators = 128;        // tm x tn register tile of one thread
inline constexpr int kMaxSharedBytesPerBlock = 232448;  // 227 KiB, opt-in, Hopper (sm_90)
inline constexpr int kMaxStaticSharedBytes = 49152;     // 48 KiB without the opt-in


}  // namespace tilescope
