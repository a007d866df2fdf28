// __FILE__ expands to the lab's temporary file's path: does a message show it?
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    printf(__FILE__);
    int x = __FILE__;
}
