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
