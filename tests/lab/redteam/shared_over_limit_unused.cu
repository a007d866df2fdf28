// bounds_jkl: the reference solution plus an unused __shared__ array of a million floats (4 MB), past the per-block limit.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float unused[1000000];
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    float Pvalue = 0;
    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph*TILE_WIDTH + tx < k) Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else Mds[ty][tx] = 0.0f;
        if (ph*TILE_WIDTH + ty < k && Col < l) Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else Nds[ty][tx] = 0.0f;
        __syncthreads();  // read-after-write: the tiles are loaded before anyone reads them
        for (int kk = 0; kk < TILE_WIDTH; ++kk)
            Pvalue += Mds[ty][kk] * Nds[kk][tx];
        __syncthreads();  // write-after-read: everyone has read the tiles before the next load
    }
    if (Row < j && Col < l) P[Row*l + Col] = Pvalue;
}
