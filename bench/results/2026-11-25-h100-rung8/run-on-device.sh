#!/usr/bin/env bash
# What ran on the H100 for rung 8 with M's tile swizzled, in two calls on one warm machine,
# from the repository root:
#   bench/results/2026-11-25-h100-rung8/run-on-device.sh check OUTDIR   scripts/gpu-check's build
#       (sm_90a) and GPU tests, memcheck and racecheck of the rung, Nsight Compute's counters of
#       the rung beside the model's, and what limits it at N = 4096
#   bench/results/2026-11-25-h100-rung8/run-on-device.sh bench OUTDIR   the ladder at 4096 and
#       8192 in one run, the whole ladder as CSV, the tiling sweep (rung 8's candidates included)
# Everything goes into OUTDIR/results.tgz (the device tool returns at most 8 files).
set -uo pipefail
WHAT=${1:?check or bench}
OUT=${2:?OUTDIR}
R=/tmp/rung8-$WHAT
rm -rf "$R" && mkdir -p "$R"
S=$SECONDS
CLI=build-gpu/app/cli/tilescope-cli
if [ "$WHAT" = check ]; then
  STEPS=test JOBS=16 scripts/gpu-check "$R/gpu-check"
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
  } >"$R/sanitizers.log" 2>&1
  M=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  {
    echo "== counters, tma-pipeline 128x64x256 (H100 tiling, M swizzled)"
    ncu --clock-control none --kernel-name-base demangled --kernel-name regex:plain:: --metrics $M --csv \
      $CLI analyze --backend cuda --plain-run --out /dev/null --kernel tma-pipeline --dims 128,64,256
    echo "== the model (tilescope-cli analyze --backend emu --json)"
    $CLI analyze --backend emu --json --kernel tma-pipeline --dims 128,64,256
    echo "== what limits it at N = 4096: speed of light, warp states, instruction mix"
    ncu --clock-control none --kernel-name-base demangled --kernel-name regex:plain:: --section SpeedOfLight \
      --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy \
      $CLI run --backend cuda --kernel tma-pipeline --dims 4096,4096,4096
  } >"$R/ncu-tma-pipeline.txt" 2>&1
else
  { date -u; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,driver_version --format=csv; } >"$R/device-bench.txt" 2>&1
  $CLI bench --preset ladder --sizes 4096,8192 --seed 7 >"$R/bench-ladder-4096-8192.txt" 2>&1
  $CLI bench --preset ladder --csv --seed 7 >"$R/bench-ladder.csv" 2>"$R/bench-ladder.err"
  STEPS=tune JOBS=16 scripts/gpu-check "$R/gpu-check-tune"
fi
echo "$WHAT: $((SECONDS - S)) s" | tee "$R/seconds.txt"
tar czf "$OUT/results-$WHAT.tgz" -C /tmp "rung8-$WHAT"
