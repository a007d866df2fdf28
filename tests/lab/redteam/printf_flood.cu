// Every thread prints as much as the step budget allows.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    for (int i = 0; i < 100000000; ++i) printf("%0100d%0100d%0100d%0100d%0100d%0100d%0100d%0100d\n", i, i, i, i, i, i, i, i);
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
