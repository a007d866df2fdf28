// Probing the machine from the preprocessor: __has_include of a file outside the lab.
#if __has_include("/etc/passwd")
#error the preprocessor can see /etc/passwd
#endif
#ifdef __linux__
#error linux is defined
#endif
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {}
