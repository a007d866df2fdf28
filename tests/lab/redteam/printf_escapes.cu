// Terminal escapes and NUL bytes through printf's %c and the format itself.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    if (threadIdx.x == 0 && blockIdx.x == 0 && threadIdx.y == 0 && blockIdx.y == 0)
        printf("\x1b]0;owned\x07\x1b[2J\x1b[31mPASS%c%c\n", 27, 0);
    if (threadIdx.x == 0 && threadIdx.y == 0 && blockIdx.x == 0 && blockIdx.y == 0) { int z = j - j; P[0] = 1 / z; }  // stop here: the output is shown
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
