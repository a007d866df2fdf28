// bank_padding: the starter, unpadded (NdsT[tx][kk] conflicts 8-way), with eight shared
// declarations before its tiles so that the tiles' trace ids are 8 and 9 (kMaxSharedArrays is 8).
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float d0[1];
    float* d1 = d0; float* d2 = d0; float* d3 = d0; float* d4 = d0;
    float* d5 = d0; float* d6 = d0; float* d7 = d0;
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float NdsT[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        NdsT[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];
        __syncthreads();
        for (int kk = 0; kk < TILE_WIDTH; ++kk)
            Pvalue += Mds[ty][kk] * NdsT[tx][kk];
        __syncthreads();
    }
    P[Row*l + Col] = Pvalue;
}
