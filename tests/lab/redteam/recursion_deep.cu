// Recursion: deep, and wide (each call two calls).
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    int x = fib(23) + down(20);
    if (threadIdx.x == 0 && blockIdx.x == 0 && threadIdx.y == 0 && blockIdx.y == 0) printf("%d\n", x);
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) { float s = 0; for (int i = 0; i < k; ++i) s += M[Row*k+i] * N[i*l+Col]; P[Row*l+Col] = s; }
}
