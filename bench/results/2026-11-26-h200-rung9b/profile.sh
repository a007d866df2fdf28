#!/usr/bin/env bash
# rung 9 profile: build the CLI (preset gpu), ncu rung 8 vs rung 9 at 4096, rung 9 at 1024 / 3000.
set -uo pipefail
O=${1:?out}; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
ARGS=()
[ ! -d /usr/include/gtest ] && ARGS+=("-DGTest_DIR=$ROOT/.device-deps/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ ! -f /usr/include/seccomp.h ] && ARGS+=("-DCMAKE_PREFIX_PATH=$ROOT/.device-deps/usr")
s=$SECONDS
{ cmake --preset gpu "${ARGS[@]}" && cmake --build build-gpu -j 16 --target tilescope-cli; } > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
echo "build $((SECONDS-s)) s"
CLI=build-gpu/app/cli/tilescope-cli
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; nvcc --version | tail -2; } > $O/device.txt
cuobjdump --dump-resource-usage $CLI 2>/dev/null | grep -A1 -E "stream_k|tma_pipeline" | grep -B1 -E "REG" > $O/resources.txt
SECT="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section SourceCounters"
prof() {  # name kernel dims [extra]
  local n=$1; shift
  echo "== $n: $*" | tee -a $O/runs.txt
  $CLI run --backend cuda "$@" --out /dev/null 2>&1 | tail -4 >> $O/runs.txt
  ncu --clock-control none --kernel-name-base demangled -k regex:plain:: $SECT -o $O/reps/$n -f $CLI run --backend cuda "$@" --out /dev/null > $O/reps/$n.log 2>&1
  ncu --import $O/reps/$n.ncu-rep --page details > $O/details-$n.txt 2>&1
}
mkdir -p $O/reps
prof r8-4096 --kernel tma-pipeline --size 4096 --tiling 128x256x32/64x64/8x16
prof r9-4096 --kernel stream-k --size 4096
prof r8-1024 --kernel tma-pipeline --size 1024 --tiling 128x256x32/64x64/8x16
prof r9-1024 --kernel stream-k --size 1024
prof r9-3000 --kernel stream-k --size 3000
for n in r8-4096 r9-4096 r9-1024 r9-3000; do
  ncu --import $O/reps/$n.ncu-rep --page source --csv --print-source sass > $O/reps/src-$n.csv 2>&1
done
cat $O/details-*.txt > $O/details.txt; rm $O/details-*.txt
(cd $O && tar czf reps.tgz reps && rm -rf reps)
grep -E "^==|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|L2 Hit|Issued Ipc|No Eligible|Warp Cycles Per Issued|Local" $O/details.txt | head -120
cat $O/resources.txt
echo total $((SECONDS-s)) s
