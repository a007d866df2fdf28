// #include of the temporary file itself, by the macro __FILE__ (a macro name is refused?).
#include __FILE__
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
