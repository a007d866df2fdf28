#!/usr/bin/env bash
# rung9f call 2: branch rung9f's experiment build (rounds of whole tiles through the
# data-parallel loop, then stream-K; TILESCOPE_SK_ROUNDS picks the rounds: unset = tiles / G - 1,
# 99 = tiles / G, 0 = none). Three rounds at 4096, 6144, 8192: one block per tile (dp), the
# hybrid on 132 blocks at the default rounds (hyA) and at tiles / G rounds (hyB), cuBLAS in
# every bench run; 3000 and 5000 on 132 blocks with and without rounds; ncu of hyB at 8192.
set -uo pipefail
X=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}; mkdir -p $O
R=/tmp/r9f; W=$R/exp; mkdir -p $W/src $R/ncu; S=$SECONDS
tar xzf $X/src-exp.tgz -C $W/src; cp $X/COMMIT-exp $W/src/COMMIT
export PATH=$PATH:/usr/local/cuda/bin
D=$X/../.device-deps; CA=()
[ -d /usr/include/gtest ] || CA+=("-DGTest_DIR=$D/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ -f /usr/include/seccomp.h ] || CA+=("-DCMAKE_PREFIX_PATH=$D/usr")
cd $W/src
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -2; cat COMMIT; } > $R/device2.txt 2>&1
{ cmake --preset gpu "${CA[@]}" -DCMAKE_CUDA_ARCHITECTURES=90a-real "-DCMAKE_CUDA_FLAGS=--threads 0 -DTILESCOPE_SK_EXPERIMENT" && cmake --build build-gpu -j16 --target tilescope-cli gpu_test; } > $R/build-exp.log 2>&1 || { tail -40 $R/build-exp.log; exit 1; }
echo "build $((SECONDS - S)) s"
CLI=$W/src/build-gpu/app/cli/tilescope-cli
B="bench --kernel stream-k --blocks 32x32 --seed 7 --tiling 128x256x32/64x64/8x16"
for r in 1 2 3; do
  $CLI $B --sizes 4096,6144,8192 --grid-blocks 0 > $R/r$r-dp.txt 2>/dev/null
  $CLI $B --sizes 4096,6144,8192 --grid-blocks 132 > $R/r$r-hyA.txt 2>/dev/null
  TILESCOPE_SK_ROUNDS=99 $CLI $B --sizes 4096,6144,8192 --grid-blocks 132 > $R/r$r-hyB.txt 2>/dev/null
  echo "round $r $((SECONDS - S)) s"
done
for h in A 0; do
  if [ $h = 0 ]; then export TILESCOPE_SK_ROUNDS=0; fi
  $CLI $B --sizes 3000,5000 --grid-blocks 132 > $R/mid-$h.txt 2>/dev/null
done
unset TILESCOPE_SK_ROUNDS
echo "mid $((SECONDS - S)) s"
SECT="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SourceCounters"
if [ $((SECONDS - S)) -lt 540 ]; then
  TILESCOPE_SK_ROUNDS=99 timeout 40 ncu --clock-control none --kernel-name-base demangled -k regex:matrixMul -c 1 $SECT -o $R/ncu/hyB -f $CLI $B --sizes 8192 --repeats 3 --grid-blocks 132 > $R/ncu/hyB.log 2>&1
  ncu --import $R/ncu/hyB.ncu-rep --page details > $R/ncu/details-hyB.txt 2>&1
  ncu --import $R/ncu/hyB.ncu-rep --page source --csv --print-source sass > $R/ncu/src-hyB.csv 2>&1
fi
(cd $R && tar czf $O/call2.tgz device2.txt build-exp.log r?-*.txt mid-*.txt ncu/*hyB*)
echo "== case: stream-k ms GFLOP/s | cuBLAS ms GFLOP/s"
for f in $R/r?-*.txt $R/mid-*.txt; do echo "$(basename $f): $(grep -E '^(stream-k|cuBLAS)' $f | awk '{printf "%s %s %s | ", $3, $4, $5}')"; done
grep -E "Duration|L2 Hit|Issued Ipc|No Eligible" $R/ncu/details-hyB.txt
echo total $((SECONDS - S)) s
