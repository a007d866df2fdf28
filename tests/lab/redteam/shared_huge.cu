// A __shared__ array of 100 million floats (400 MB per block).
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float s[100000000];
    s[1000000] = 1.0f;
    float x = s[1000003];
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float acc = x - x; for (int i = 0; i < k; ++i) acc += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = acc; }
}
