// A 128-bit load from &M[1]: misaligned (4-byte aligned), a fault on the GPU.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    float4 v = *reinterpret_cast<float4*>(&M[1]);
    if (threadIdx.x == 0 && blockIdx.x == 0 && threadIdx.y == 0 && blockIdx.y == 0) printf("%f\n", v.x);
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
