// __shared__ arrays of double and long long, stored in 4-byte cells? PROBE=1: (int)(d[0] * 2),
// C says 3; PROBE=2: (int)(q[0] / 1000000), C says 5000. Shown as an index of a local array.
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    __shared__ double d[4];
    __shared__ long long q[4];
    d[0] = 1.5; q[0] = 5000000000LL;
    int v = PROBE == 1 ? (int)(d[0] * 2) : (int)(q[0] / 1000000);
    float show[1];
    show[v + 1000000] = 0;  // the message prints v + 1000000
}
