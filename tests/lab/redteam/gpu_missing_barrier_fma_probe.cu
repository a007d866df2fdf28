// The interpreter recognised by its arithmetic: it rounds x*x before the subtraction, where
// NVRTC (by default) contracts x*x - t into one FMA, which keeps the product's rounding error.
// e is 0 in the lab's run and not 0 on a GPU, so the kernel takes its second barrier only in
// the lab: verified and race-free there, a write-after-read race on the GPU. The interpreter's
// grade alone passes it (its arithmetic is the interpreter's: no contraction); with
// --backend cuda the GPU's traced run has fewer barriers than the lab's, and the check fails:
// "behaves differently on the GPU" (tests/gpu/lab_gpu_test.cpp).
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;

    float x = k * 0.1f + 0.3f;
    float t = x * (x + 0.0f);  // the product, rounded: another multiply than x * x (x + 0 is not x for -0)
    float e = x * x - t;       // 0 in the lab; the product's rounding error under an FMA

    float Pvalue = 0;
    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph*TILE_WIDTH + tx < k) Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else Mds[ty][tx] = 0.0f;
        if (ph*TILE_WIDTH + ty < k && Col < l) Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else Nds[ty][tx] = 0.0f;
        __syncthreads();  // read-after-write: the tiles are loaded before anyone reads them
        for (int kk = 0; kk < TILE_WIDTH; ++kk)
            Pvalue += Mds[ty][kk] * Nds[kk][tx];
        if (e == 0.0f) __syncthreads();  // write-after-read, in the lab only
    }
    if (Row < j && Col < l) P[Row*l + Col] = Pvalue;
}
