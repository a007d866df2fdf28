#!/usr/bin/env bash
# rung 9b: build (preset gpu), ctest -L gpu, memcheck/racecheck of rung 9, bench sizes (DP band order and
# rung 8's 2D grid), ncu of rung 9 at 4096 (both orders), ncu counters at 128x64x256.
set -uo pipefail
O=${1:?out}; MODE=${MODE:-full}; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
ARGS=()
[ ! -d /usr/include/gtest ] && ARGS+=("-DGTest_DIR=$ROOT/.device-deps/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ ! -f /usr/include/seccomp.h ] && ARGS+=("-DCMAKE_PREFIX_PATH=$ROOT/.device-deps/usr")
s=$SECONDS
T="tilescope-cli"; [ $MODE = full ] && T="tilescope-cli tilescope-lab-runner gpu_test"
{ cmake --preset gpu "${ARGS[@]}" && cmake --build build-gpu -j 16 --target $T; } > $O/build.log 2>&1 || { tail -60 $O/build.log; exit 1; }
echo "build $((SECONDS-s)) s"
CLI=build-gpu/app/cli/tilescope-cli
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; nvcc --version | tail -2; } > $O/info.txt
cuobjdump --dump-resource-usage $CLI 2>/dev/null | grep -A1 -E "plain8stream_k|plain12tma_pipeline" >> $O/info.txt
$CLI bench --preset sizes --seed 7 > $O/sizes.txt 2>&1; echo "sizes $((SECONDS-s)) s"
$CLI bench --preset sizes --seed 7 > $O/sizes2.txt 2>&1; echo "sizes2 $((SECONDS-s)) s"
if [ $MODE = full ]; then
  ctest --test-dir build-gpu -L gpu --output-on-failure -j 8 --timeout 300 > $O/ctest-gpu.log 2>&1
  grep -E "tests passed|tests failed|\(Failed\)" $O/ctest-gpu.log; echo "ctest $((SECONDS-s)) s"
  for a in "--dims 263,132,272 --grid-blocks 3" "--dims 131,68,260" "--dims 131,68,260 --grid-blocks 0 --tiling 128x256x32/64x64/8x16"; do
    for tool in memcheck racecheck; do
      echo "== $tool run --kernel stream-k $a" >> $O/sanitize.txt
      compute-sanitizer --tool $tool --error-exitcode 9 $CLI run --backend cuda --kernel stream-k $a --out /dev/null >> $O/sanitize.txt 2>&1; echo "rc $?" >> $O/sanitize.txt
    done
  done
  grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|^rc" $O/sanitize.txt; echo "sanitize $((SECONDS-s)) s"
  M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:plain:: --metrics $M --csv $CLI analyze --backend cuda --plain-run --out /dev/null --kernel stream-k --dims 128,64,256 > $O/fixture.txt 2>&1
  $CLI analyze --backend emu --json --kernel stream-k --dims 128,64,256 >> $O/fixture.txt 2>&1
fi
SECT="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section SourceCounters"
mkdir -p $O/reps
for order in 4096 1024; do
  ncu --clock-control none --kernel-name-base demangled -k regex:stream_k --launch-count 1 $SECT -o $O/reps/r9-$order -f \
    $CLI bench --kernels stream-k --sizes $order --no-cublas --repeats 3 > $O/reps/r9-$order.log 2>&1
  ncu --import $O/reps/r9-$order.ncu-rep --page details > $O/reps/details-$order.txt 2>&1
  ncu --import $O/reps/r9-$order.ncu-rep --page source --csv --print-source sass > $O/reps/src-r9-$order.csv 2>&1
done
(cd $O && tar czf reps.tgz reps && rm -rf reps)
grep -A40 "% of cuBLAS" $O/sizes.txt; grep -A40 "% of cuBLAS" $O/sizes2.txt
echo total $((SECONDS-s)) s
