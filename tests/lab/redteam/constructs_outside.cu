// Constructs outside the subset in one file: the first should be refused at its line.
__constant__ float c[4];
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    atomicAdd(&P[0], 1.0f);
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
