#!/usr/bin/env bash
# rung9d experiment 1: the flags build (src/) against main's build (base/), one machine.
set -uo pipefail
X=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"
S=$SECONDS
export LD_LIBRARY_PATH=$X/base${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; cat $X/src/COMMIT; } > $O/device.txt 2>&1
cd $X/src
D=$X/../.device-deps; CA=()
[ -d /usr/include/gtest ] || CA+=("-DGTest_DIR=$D/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ -f /usr/include/seccomp.h ] || CA+=("-DCMAKE_PREFIX_PATH=$D/usr")
{ cmake --preset gpu "${CA[@]}" && cmake --build build-gpu -j16 --target tilescope-cli gpu_test; } > $O/build.log 2>&1 || { tail -60 $O/build.log; exit 1; }
echo "build $((SECONDS - S)) s"
NEW=$X/src/build-gpu/app/cli/tilescope-cli; BASE=$X/base/tilescope-cli
T=128x256x32/64x64/8x16
# 1024: base (selector: 132, counters + memset) against new at 132 and 128, three rounds
for r in 1 2 3; do
  $BASE bench --kernel stream-k --blocks 32x32 --sizes 1024 --seed 7 --repeats 50 > $O/r$r-base-1024.txt 2>/dev/null
  $NEW bench --kernel stream-k --blocks 32x32 --sizes 1024 --seed 7 --repeats 50 --tiling $T --grid-blocks 132 > $O/r$r-new132-1024.txt 2>/dev/null
  $NEW bench --kernel stream-k --blocks 32x32 --sizes 1024 --seed 7 --repeats 50 --tiling $T --grid-blocks 128 > $O/r$r-new128-1024.txt 2>/dev/null
done
echo "1024 done $((SECONDS - S)) s"
# the sweep, base then new
$BASE bench --preset sizes --seed 7 > $O/sizes-base.txt 2>/dev/null
$NEW bench --preset sizes --seed 7 > $O/sizes-new.txt 2>/dev/null
echo "sizes done $((SECONDS - S)) s"
# 4096, 6144, 8192: data-parallel (0) against stream-K over 132 and 264
for g in 0 132 264; do
  $NEW bench --kernel stream-k --blocks 32x32 --sizes 4096,6144,8192 --seed 7 --tiling $T --grid-blocks $g > $O/big-g$g.txt 2>/dev/null
done
echo "big done $((SECONDS - S)) s"
timeout 150 ctest --test-dir build-gpu -L gpu -R "stream_k|StreamK" --output-on-failure > $O/ctest.log 2>&1
grep -E "tests passed|tests failed|No tests" $O/ctest.log
cd $O && tar czf results.tgz *.txt ctest.log 2>/dev/null
echo "== summary (ms / GFLOP/s)"
for f in r*-1024.txt; do echo "$f: $(grep -E '^(stream-k|cuBLAS)' $f | awk '{printf "%s %s %s | ", $3, $4, $5}')"; done
for f in sizes-base.txt sizes-new.txt; do echo "== $f"; sed -n '/% of cuBLAS/,$p' $f | grep stream-k; done
for f in big-g*.txt; do echo "$f: $(grep -E '^(stream-k|cuBLAS)' $f | awk '{printf "%s %s %s | ", $3, $4, $5}')"; done
echo "total $((SECONDS - S)) s"
