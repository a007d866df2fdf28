#!/usr/bin/env bash
# rung9f call 1: main's tree (57ea83e): build the CLI (sm_90a), ncu at 8192 of (a) rung 9's
# data-parallel build (one block per tile), (b) its split build on 132 blocks, (c) cuBLAS's SGEMM
# kernel in the same bench run; the stream-k kernels' SASS and resources.
set -uo pipefail
X=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p $O
R=/tmp/r9f; W=$R/main; mkdir -p $W/src $R/ncu; S=$SECONDS
tar xzf $X/src-main.tgz -C $W/src; cp $X/COMMIT-main $W/src/COMMIT
export PATH=$PATH:/usr/local/cuda/bin
D=$X/../.device-deps; CA=()
[ -d /usr/include/gtest ] || CA+=("-DGTest_DIR=$D/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ -f /usr/include/seccomp.h ] || CA+=("-DCMAKE_PREFIX_PATH=$D/usr")
cd $W/src
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -2; cat COMMIT; } > $R/device.txt 2>&1
{ cmake --preset gpu "${CA[@]}" -DCMAKE_CUDA_ARCHITECTURES=90a-real "-DCMAKE_CUDA_FLAGS=--threads 0" && cmake --build build-gpu -j16 --target tilescope-cli; } > $R/build-main.log 2>&1 || { tail -40 $R/build-main.log; exit 1; }
echo "build $((SECONDS - S)) s"
CLI=$W/src/build-gpu/app/cli/tilescope-cli
cuobjdump --dump-resource-usage $CLI 2>/dev/null | grep -A1 "stream_k" > $R/resources-main.txt
SECT="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SourceCounters"
B="bench --kernel stream-k --blocks 32x32 --seed 7 --tiling 128x256x32/64x64/8x16 --sizes 8192 --repeats 3"
prof() {  # name, kernel regex, grid blocks
  timeout 90 ncu --clock-control none --kernel-name-base demangled -k "regex:$2" -c 1 $SECT -o $R/ncu/$1 -f $CLI $B --grid-blocks $3 > $R/ncu/$1.log 2>&1
  ncu --import $R/ncu/$1.ncu-rep --page details > $R/ncu/details-$1.txt 2>&1
  ncu --import $R/ncu/$1.ncu-rep --page source --csv --print-source sass > $R/ncu/src-$1.csv 2>&1
  echo "$1 $((SECONDS - S)) s"
}
prof dp matrixMul 0
prof split matrixMul 132
prof cublas "gemm|Gemm|xmma|cutlass" 0
cuobjdump -sass $CLI 2>/dev/null | awk '/Function : /{p=/stream_k.*matrixMulKernel/} p' | gzip > $R/sass-main.txt.gz
(cd $R && tar czf $O/call1.tgz device.txt build-main.log resources-main.txt sass-main.txt.gz ncu)
grep -E "^  [a-zA-Z_].*\(|Duration|Registers Per|Grid Size|Block Size|Shared Memory Config|Dynamic Shared|Static Shared|Achieved Occupancy|SM Frequency|Compute \(SM\) Throughput|L2 Hit|Issued Ipc|No Eligible|Warp Cycles Per Issued" $R/ncu/details-*.txt
cat $R/resources-main.txt | head -20
echo total $((SECONDS - S)) s
