#!/usr/bin/env bash
# What ran on the H100 for rung 8 (tma-pipeline), in one call: the GPU build (sm_90a), the
# GPU = emulator trace test, memcheck and racecheck, Nsight Compute on the rung, the whole
# ladder sweep as CSV. Run from the repository root: bench/results/.../run-on-device.sh OUTDIR
set -uo pipefail
OUT=${1:?OUTDIR}
S=$SECONDS
{ cmake --preset gpu -DCMAKE_CUDA_ARCHITECTURES=90a && cmake --build build-gpu -j16 --target tilescope-cli gpu_test; } >"$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS - S)) s"
CLI=build-gpu/app/cli/tilescope-cli
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; git log -1 --oneline 2>/dev/null; } >"$OUT/device.txt" 2>&1
timeout 240 ctest --test-dir build-gpu -L gpu -R "tma_pipeline|TmaPipeline" --output-on-failure >"$OUT/ctest-tma.log" 2>&1
grep -E "tests passed|tests failed" "$OUT/ctest-tma.log"
{
  for args in "--dims 131,68,260" "--dims 131,68,260 --tiling 128x256x32/64x64/8x16"; do
    for cmd in run trace; do
      echo "== compute-sanitizer --tool memcheck $CLI $cmd --backend cuda --kernel tma-pipeline $args"
      compute-sanitizer --tool memcheck --error-exitcode 9 $CLI $cmd --backend cuda --kernel tma-pipeline $args --out /dev/null
      echo "(exit $?)"
    done
    echo "== compute-sanitizer --tool racecheck --racecheck-report all $CLI run --backend cuda --kernel tma-pipeline $args"
    compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 $CLI run --backend cuda --kernel tma-pipeline $args --out /dev/null
    echo "(exit $?)"
  done
} >"$OUT/sanitizers.log" 2>&1
grep -E "^==|SUMMARY|exit" "$OUT/sanitizers.log"
M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
{
  echo "== counters, tma-pipeline 128x64x256 (H100 tiling)"
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:plain:: --metrics $M --csv \
    $CLI analyze --backend cuda --plain-run --out /dev/null --kernel tma-pipeline --dims 128,64,256
  echo "== the model (tilescope-cli analyze --backend emu --json)"
  $CLI analyze --backend emu --json --kernel tma-pipeline --dims 128,64,256
  echo "== what limits it at N = 4096: speed of light, warp states, instruction mix"
  ncu --clock-control none --kernel-name-base demangled --kernel-name regex:plain:: --section SpeedOfLight \
    --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy \
    $CLI run --backend cuda --kernel tma-pipeline --dims 4096,4096,4096
} >"$OUT/ncu.txt" 2>&1
$CLI bench --preset ladder --csv --seed 7 >"$OUT/bench-ladder.csv" 2>"$OUT/bench-ladder.err"
tail -3 "$OUT/bench-ladder.csv"
echo "total $((SECONDS - S)) s"
