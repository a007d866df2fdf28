__global__ void MatrixMultNaive(float *a, float *b, float *c,
int theSize)
{
    int sum, i, j, k;

    i = blockIdx.x * blockDim.x + threadIdx.x;
    j = blockIdx.y * blockDim.y + threadIdx.y;

    // For every destination element
    sum = 0;
    // Sum along a row in a and a column in b
    for(k = 0; k < theSize; k++)
        sum = sum + (a[i*theSize + k]*b[k*theSize + j]);
    c[i*theSize + j] = sum;
}
// lab: from the lecture slides on CUDA memory (MatrixMultNaive): the sum is an int, so every product is truncated
// lab: size 8
// lab: block 4x4
// lab: expect wrong result
