#!/usr/bin/env bash
# rung9e call 1: the hybrid (data-parallel rounds, then stream-K) against the data-parallel
# build at 4096, 6144, 8192 and 8192 x 1024 x 8192, three rounds, cuBLAS in every bench run;
# the split kernels' SASS; rung 9's GPU tests on this build.
set -uo pipefail
X=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"; R=/tmp/r9e; mkdir -p $R
S=$SECONDS
ln -sfn $X/../.device-deps $X/src/.device-deps
cd $X/src
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; cat COMMIT; } > $R/device.txt 2>&1
D=$X/../.device-deps; CA=()
[ -d /usr/include/gtest ] || CA+=("-DGTest_DIR=$D/usr/lib/x86_64-linux-gnu/cmake/GTest")
[ -f /usr/include/seccomp.h ] || CA+=("-DCMAKE_PREFIX_PATH=$D/usr")
{ cmake --preset gpu "${CA[@]}" -DCMAKE_CUDA_FLAGS=-DTILESCOPE_SK_EXPERIMENT && cmake --build build-gpu -j16 --target tilescope-cli gpu_test; } > $R/build.log 2>&1 || { tail -60 $R/build.log; exit 1; }
echo "build $((SECONDS - S)) s"
CLI=build-gpu/app/cli/tilescope-cli; T=128x256x32/64x64/8x16
B="bench --kernel stream-k --blocks 32x32 --seed 7 --tiling $T"
run() {  # name, env..., then the grid
  local name=$1; shift
  env "$@" $CLI $B --sizes 4096,6144,8192 --grid-blocks $G > $R/$name.txt 2>/dev/null
  env "$@" $CLI $B --dims 8192,1024,8192 --grid-blocks $G >> $R/$name.txt 2>/dev/null
}
for r in 1 2 3; do
  G=0 run r$r-dp TILESCOPE_SK_HYBRID=1
  G=132 run r$r-hy2 TILESCOPE_SK_HYBRID=1 TILESCOPE_SK_KQ=2
  G=132 run r$r-hy1 TILESCOPE_SK_HYBRID=1 TILESCOPE_SK_KQ=1
  echo "round $r $((SECONDS - S)) s"
done
# 3000 and 5000 (the selector's stream-K over 132): plain stream-K against the hybrid, by 2
for h in 0 1; do
  TILESCOPE_SK_HYBRID=$h TILESCOPE_SK_KQ=2 $CLI $B --sizes 3000,5000 --grid-blocks 132 > $R/mid-h$h.txt 2>/dev/null
done
echo "mid $((SECONDS - S)) s"
timeout 150 ctest --test-dir build-gpu -L gpu -R "stream_k|StreamK" --output-on-failure > $R/ctest.log 2>&1
grep -E "tests passed|tests failed|No tests" $R/ctest.log
if [ $SECONDS -lt 520 ]; then
  timeout 40 cuobjdump -sass $CLI 2>/dev/null | awk '/Function : .*stream_k.*matrixMulKernel/{p=1} /Function : /&&!/stream_k.*matrixMulKernel/{p=0} p' | gzip > $R/sass-stream-k.txt.gz
  ls -la $R/sass-stream-k.txt.gz
fi
cd $R && tar czf $O/r9e.tgz *.txt *.log *.gz 2>/dev/null
echo "== summary: case, ms, GFLOP/s of stream-k | of cuBLAS"
for f in r*-*.txt mid-*.txt; do echo "$f: $(grep -E '^(stream-k|cuBLAS)' $f | awk '{printf "%s %s %s | ", $3, $4, $5}')"; done
echo "total $((SECONDS - S)) s"
