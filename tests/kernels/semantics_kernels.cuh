// Test-only kernels for emulator_semantics_test.cpp, written as plain CUDA and rewritten
// into views by the build like the real kernels. Line numbers matter: the tests expect the
// lines of the subscripts below.

// Each thread publishes a value, then reads its neighbour's: correct only if no thread
// passes the barrier before every thread has written (a read-after-write dependence).
__global__ void neighbourKernel(int* out) {
  __shared__ int published[256];
  const int t = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int n = int(blockDim.x * blockDim.y);
  published[t] = int(blockIdx.x) * 1000 + t + 1;
  __syncthreads();  // read-after-write: the neighbour's slot is written before it is read
  out[int(blockIdx.x) * n + t] = published[(t + 1) % n];
}

// Odd threads leave early: the even ones wait at a barrier the odd ones never reach.
__global__ void earlyExitKernel(int* out) {
  if (threadIdx.x % 2 == 1) return;
  __syncthreads();  // divergent on purpose: half the block has returned
  out[int(threadIdx.x)] = 1;
}

// Two groups wait at two different barriers.
__global__ void splitBarrierKernel(int* out) {
  if (threadIdx.x < 4) {
    __syncthreads();  // divergent on purpose: only threads 0-3 come here
  } else {
    __syncthreads();  // divergent on purpose: threads 4 and up come here
  }
  out[int(threadIdx.x)] = 1;
}

// Every thread writes 100 elements past its own (line 34).
__global__ void outOfBoundsKernel(int* out) { out[int(threadIdx.x) + 100] = 7; }

// A 4 x 4 tile read one column too far: thread tx = 3 reads Tile[ty][4] (line 42), which
// C++ would place at Tile[ty + 1][0] (or past the array on the last row).
__global__ void sharedColumnPastTheEndKernel(float* out) {
  __shared__ float Tile[4][4];
  Tile[threadIdx.y][threadIdx.x] = float(threadIdx.y * 4 + threadIdx.x);
  __syncthreads();  // read-after-write: the tile is written before it is read
  out[threadIdx.y * 4 + threadIdx.x] = Tile[threadIdx.y][threadIdx.x + 1];
}

// Reads a slot of dynamic shared memory that no thread wrote (line 48), then writes a slot.
__global__ void staleSharedKernel(float* out) {
  extern __shared__ float scratch[];
  out[blockIdx.x * blockDim.x + threadIdx.x] = scratch[threadIdx.x];
  scratch[threadIdx.x] = 42.0f;
}

// One warp multiplies A (16 x 8, A[r][c] = 8r + c) by the 8 x 8 identity on the tensor cores,
// the sums starting at 0.5. Each lane passes the elements the PTX ISA's fragment tables give it,
// written out here from the tables: lane = 4g + t holds A[g][t], A[g + 8][t], A[g][t + 4],
// A[g + 8][t + 4] and B[t][g], B[t + 4][g]; it stores its four sums.
__global__ void warpMmaKernel(float* out) {
  int g = threadIdx.x / 4, t = threadIdx.x % 4;
  float a[4] = {float(8 * g + t), float(8 * (g + 8) + t), float(8 * g + t + 4), float(8 * (g + 8) + t + 4)};
  float b[2] = {t == g ? 1.0f : 0.0f, t + 4 == g ? 1.0f : 0.0f};
  float sums[4] = {0.5f, 0.5f, 0.5f, 0.5f};
  mmaSyncTf32(sums, a, b);
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = sums[i];
}

// Lane 31 returns before the warp's MMA (line 69): the other 31 lanes wait for it forever.
__global__ void laneSkipsMmaKernel(float* out) {
  float a[4] = {1.0f, 1.0f, 1.0f, 1.0f}, b[2] = {1.0f, 1.0f}, sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (threadIdx.x == 31) return;
  mmaSyncTf32(sums, a, b);
  out[threadIdx.x] = sums[0];
}

// Thread 127 returns before its warpgroup's MMA (line 85): the other 127 wait for it forever.
// The operands are all ones, 64 rows of 32 floats each from a multiple of 1024 bytes (the
// swizzle's pattern starts there; the MMA reads 8 floats of each row).
__global__ void threadSkipsWarpgroupMmaKernel(float* out) {
  __shared__ float operands[2 * 64 * 32 + 256];
  float* As = alignedTo1024(operands);
  float* Bs = As + 64 * 32;
  for (int i = threadIdx.x; i < 2 * 64 * 32; i += 128) As[i] = 1.0f;
  __syncthreads();  // read-after-write: the operands are in place before the MMA reads them
  float sums[32];
  for (int i = 0; i < 32; ++i) sums[i] = 0.0f;
  if (threadIdx.x == 127) return;
  wgmmaTf32(sums, &As[0], &Bs[0]);
  out[threadIdx.x] = sums[0];
}

// The same with every thread there: 64 x 64 sums of 8 products of ones, 8 each.
__global__ void warpgroupMmaKernel(float* out) {
  __shared__ float operands[2 * 64 * 32 + 256];
  float* As = alignedTo1024(operands);
  float* Bs = As + 64 * 32;
  for (int i = threadIdx.x; i < 2 * 64 * 32; i += 128) As[i] = 1.0f;
  __syncthreads();  // read-after-write: the operands are in place before the MMA reads them
  float sums[32];
  for (int i = 0; i < 32; ++i) sums[i] = 0.0f;
  wgmmaTf32(sums, &As[0], &Bs[0]);
  wgmmaWait(sums);
  for (int i = 0; i < 32; ++i) out[threadIdx.x * 32 + i] = sums[i];
}
