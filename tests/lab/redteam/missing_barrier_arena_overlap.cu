// missing_barrier: two 2^62-float arrays take 0 bytes of the block's arena, so each lies on the
// same storage as the array declared after it. Thread (0,0) alone loads every tile of its block
// through them; the other threads read the tiles through Ms and Ns with no barrier in between
// (a read-after-write race on a GPU; right under the emulator's serial schedule). Four
// barriers at the end for "min barriers-per-thread 4".
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float sm[4611686018427387904];
    __shared__ float Ms[TILE_WIDTH * 8];
    __shared__ float sn[4611686018427387904];
    __shared__ float Ns[8 * TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    if (tx == 0 && ty == 0) {
        for (int r = 0; r < TILE_WIDTH; ++r)
            for (int c = 0; c < k; ++c) {
                int gr = blockIdx.y * TILE_WIDTH + r;
                sm[r * 8 + c] = gr < j ? M[gr * k + c] : 0.0f;
            }
        for (int r = 0; r < k; ++r)
            for (int c = 0; c < TILE_WIDTH; ++c) {
                int gc = blockIdx.x * TILE_WIDTH + c;
                sn[r * TILE_WIDTH + c] = gc < l ? N[r * l + gc] : 0.0f;
            }
    }
    float Pvalue = 0;
    for (int kk = 0; kk < k; ++kk) Pvalue += Ms[ty * 8 + kk] * Ns[kk * TILE_WIDTH + tx];
    if (Row < j && Col < l) P[Row * l + Col] = Pvalue;
    __syncthreads(); __syncthreads(); __syncthreads(); __syncthreads();
}
