// A float pointer given an int shared array (not C++: no conversion from int* to float*).
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ int si[4];
    float* p = M;
    p = si;
    p[0] = 1.5f;
    if (threadIdx.x == 0 && blockIdx.x == 0 && threadIdx.y == 0 && blockIdx.y == 0) printf("si[0]=%d\n", si[0]);
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
