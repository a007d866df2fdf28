// What the GPU computes against the interpreter, one case per PROBE (lab run --define PROBE=n):
// the value is shown as the index of a one-element local array ("index V is outside ...").
//  1 (int)1e10f          GPU 2147483647 (cvt.rzi.s32.f32 saturates)
//  2 (int)NaN            GPU 0
//  3 (int)(unsigned)-1.0f GPU 0 (cvt.rzi.u32.f32 saturates)
//  4 (int)(1LL << 64)    GPU 0 (shl.b64 clamps the shift), C: undefined
//  5 (int)(-1LL >> 64)   GPU -1
//  6 (int)(1e30f*1e30f > 0) as a control: 1
//  7 (int)(long long)-1e30f GPU INT64_MIN -> (int) 0
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
    float big = 1e10f, nan = 0.0f / 0.0f, neg = -1.0f;
    long long one = 1, minus = -1;
    int sh = 64 + j - j;
    int v = 0;
    if (PROBE == 1) v = (int)big;
    if (PROBE == 2) v = (int)nan;
    if (PROBE == 3) v = (int)(unsigned)neg;
    if (PROBE == 4) v = (int)(one << sh);
    if (PROBE == 5) v = (int)(minus >> sh);
    if (PROBE == 6) v = (int)(big * big > 0);
    if (PROBE == 7) v = (int)(long long)(-big * big * big);
    float show[1];
    show[v + 1000000] = 0;  // the message prints v + 1000000
}
