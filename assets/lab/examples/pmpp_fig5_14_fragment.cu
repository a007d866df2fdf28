#define TILE_WIDTH 16
__global__ void matrixMulKernel(float* M, float* N, float* P, int Width,
                                unsigned Mdz_sz, unsigned Nds_sz) {

    extern __shared__ char float Mds_Nds[];

    float *Mds = (float *) Mds_Nds;
    float *Nds = (float *) Mds_Nds + Mds_sz;
// lab: from PMPP 4th ed., ch. 5, fig. 5.14 (dynamic shared memory), as printed: its first lines only
// lab: define TILE_WIDTH=2
// lab: size 4
// lab: shared-bytes 32
// lab: expect compile error
