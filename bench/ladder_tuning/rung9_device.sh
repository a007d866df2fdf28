#!/usr/bin/env bash
# Rung 9 (stream-k) on the H100, in one call from the repository root (about 5 to 8 minutes on
# 16 cores): the gpu preset's build (sm_90a), rung 9's GPU tests (every kernel on the GPU,
# GPU = emulator event for event, its compiled resources), the size sweep next to rung 8 and
# cuBLAS, and memcheck and racecheck of rung 9 at an odd size on a grid that splits tiles.
#   bench/ladder_tuning/rung9_device.sh [OUTDIR]      (default: $OUT, else bench/results/rung9-run)
# Prints: the build time; ctest's "N% tests passed, M tests failed out of T" line; the
# selector's choice per shape and each rung's % of cuBLAS (the bench table's tail); one
# "== tool args" line with its "ERROR SUMMARY" and "(exit N)" per sanitizer run (run: the traced
# kernel; analyze --plain-run: the plain one, as bench times it); the total time.
# Everything in full goes to OUTDIR: build.log, device.txt, ctest-stream-k.log, bench-sizes.txt
# (and .err: the sweep's progress), bench-1024-g128.txt and -g132.txt, sanitizers.log. A COMMIT
# file at the root (a copy of the tree carried without .git) names the commit in device.txt.
set -uo pipefail
OUT=${1:-${OUT:-bench/results/rung9-run}}
mkdir -p "$OUT"
S=$SECONDS
# GoogleTest and libseccomp from .device-deps where the image has none (as scripts/gpu-check).
CONFIG_ARGS=()
[ -d /usr/include/gtest ] || [ ! -d .device-deps ] ||
  CONFIG_ARGS+=("-DGTest_DIR=$PWD/.device-deps/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ -f /usr/include/seccomp.h ] || [ ! -d .device-deps ] || CONFIG_ARGS+=("-DCMAKE_PREFIX_PATH=$PWD/.device-deps/usr")
{ cmake --preset gpu "${CONFIG_ARGS[@]}" && cmake --build build-gpu -j16 --target tilescope-cli gpu_test; } >"$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS - S)) s"
CLI=build-gpu/app/cli/tilescope-cli
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; cat COMMIT 2>/dev/null || git log -1 --oneline 2>/dev/null; } >"$OUT/device.txt" 2>&1
timeout 240 ctest --test-dir build-gpu -L gpu -R "stream_k|StreamK" --output-on-failure >"$OUT/ctest-stream-k.log" 2>&1
grep -E "tests passed|tests failed|No tests were found" "$OUT/ctest-stream-k.log"
timeout 200 $CLI bench --preset sizes --seed 7 >"$OUT/bench-sizes.txt" 2>"$OUT/bench-sizes.err"
echo "bench --preset sizes: exit $?"
sed -n '/stream-k.s selector/,$p' "$OUT/bench-sizes.txt"
# N = 1024 by hand: the selector's 128 blocks (4 to a tile) against stream-K over all 132 SMs.
for g in 128 132; do
  timeout 60 $CLI bench --kernel stream-k --blocks 32x32 --sizes 1024 --seed 7 --repeats 50 \
    --tiling 128x256x32/64x64/8x16 --grid-blocks $g >"$OUT/bench-1024-g$g.txt" 2>/dev/null
  echo "1024 on $g blocks: $(grep -E '^(stream-k|cuBLAS)' "$OUT/bench-1024-g$g.txt" | awk '{printf "%s %s ms %s GFLOP/s; ", $1, $4, $5}')"
done
{
  # 131 x 68 x 260 at the H100 tiling: 4 tiles of 3 k-steps; 7 blocks split every tile.
  for args in "--dims 131,68,260 --tiling 128x256x32/64x64/8x16 --grid-blocks 7" "--dims 131,68,260"; do
    echo "== compute-sanitizer --tool memcheck $CLI run --backend cuda --kernel stream-k $args"
    timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI run --backend cuda --kernel stream-k $args
    echo "(exit $?)"
    echo "== compute-sanitizer --tool memcheck $CLI analyze --backend cuda --plain-run --kernel stream-k $args"
    timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $CLI analyze --backend cuda --plain-run --kernel stream-k $args >/dev/null
    echo "(exit $?)"
    echo "== compute-sanitizer --tool racecheck --racecheck-report all $CLI run --backend cuda --kernel stream-k $args"
    timeout 60 compute-sanitizer --tool racecheck --racecheck-report all --error-exitcode 9 $CLI run --backend cuda --kernel stream-k $args
    echo "(exit $?)"
  done
} >"$OUT/sanitizers.log" 2>&1
grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|exit" "$OUT/sanitizers.log"
echo "total $((SECONDS - S)) s"
