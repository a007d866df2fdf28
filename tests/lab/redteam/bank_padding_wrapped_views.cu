// bank_padding: the unpadded starter with its tiles carved from a 2^62-float array (0 bytes).
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float s[4611686018427387904];
    float* Mdsp = s;
    float* NdsT = s + TILE_WIDTH * TILE_WIDTH;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        Mdsp[ty*TILE_WIDTH + tx] = M[Row*k + ph*TILE_WIDTH + tx];
        NdsT[tx*TILE_WIDTH + ty] = N[(ph*TILE_WIDTH + ty)*l + Col];
        __syncthreads();
        for (int kk = 0; kk < TILE_WIDTH; ++kk)
            Pvalue += Mdsp[ty*TILE_WIDTH + kk] * NdsT[tx*TILE_WIDTH + kk];
        __syncthreads();
    }
    P[Row*l + Col] = Pvalue;
}
