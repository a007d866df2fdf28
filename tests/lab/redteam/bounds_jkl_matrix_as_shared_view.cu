// bounds_jkl: a naive kernel (2 global loads per multiply-add) whose loads of M and N are recorded
// as shared accesses: a pointer declared into a shared array is a "view" (an alias) decided from
// its initialiser's static base; reassigning that pointer to M and then declaring a second pointer
// from it makes a view whose storage is M at run time, recorded as shared memory.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ float S[1];
    float* a = S;
    float* b = S;
    a = M;
    b = N;
    float* Mv = a;   // static base: S (shared) -> an alias; run time: M's storage
    float* Nv = b;
    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < j && Col < l) {
        float s = 0;
        for (int i = 0; i < k; ++i) s += Mv[Row * k + i] * Nv[i * l + Col];
        P[Row * l + Col] = s;
    }
}
