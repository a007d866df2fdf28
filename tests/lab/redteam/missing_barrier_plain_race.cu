// missing_barrier: the same race written without pointers (control: the race check should see it).
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
                Ms[r * 8 + c] = gr < j ? M[gr * k + c] : 0.0f;
            }
        for (int r = 0; r < k; ++r)
            for (int c = 0; c < TILE_WIDTH; ++c) {
                int gc = blockIdx.x * TILE_WIDTH + c;
                Ns[r * TILE_WIDTH + c] = gc < l ? N[r * l + gc] : 0.0f;
            }
    }
    float Pvalue = 0;
    for (int kk = 0; kk < k; ++kk) Pvalue += Ms[ty * 8 + kk] * Ns[kk * TILE_WIDTH + tx];
    if (Row < j && Col < l) P[Row * l + Col] = Pvalue;
    __syncthreads(); __syncthreads(); __syncthreads(); __syncthreads();
}
