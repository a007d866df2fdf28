// missing_barrier: thread (0,0) alone loads every tile of its block through pointers into the
// shared arrays, and the other threads read them with no barrier in between (a read-after-write
// race on a GPU). Run serially by the emulator, thread (0,0) finishes first, so P is right; four
// barriers at the end satisfy "min barriers-per-thread 4". Each element of M and N is loaded once
// per block that needs it, as the tiled kernel does.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float Ms[TILE_WIDTH * 8];
    __shared__ float Ns[8 * TILE_WIDTH];
    float* ms = Ms;
    float* ns = Ns;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty, Col = blockIdx.x * TILE_WIDTH + tx;
    if (tx == 0 && ty == 0) {
        for (int r = 0; r < TILE_WIDTH; ++r)
            for (int c = 0; c < k; ++c) {
                int gr = blockIdx.y * TILE_WIDTH + r;
                ms[r * 8 + c] = gr < j ? M[gr * k + c] : 0.0f;
            }
        for (int r = 0; r < k; ++r)
            for (int c = 0; c < TILE_WIDTH; ++c) {
                int gc = blockIdx.x * TILE_WIDTH + c;
                ns[r * TILE_WIDTH + c] = gc < l ? N[r * l + gc] : 0.0f;
            }
    }
    float Pvalue = 0;
    for (int kk = 0; kk < k; ++kk) Pvalue += Ms[ty * 8 + kk] * Ns[kk * TILE_WIDTH + tx];
    if (Row < j && Col < l) P[Row * l + Col] = Pvalue;
    __syncthreads(); __syncthreads(); __syncthreads(); __syncthreads();
}
