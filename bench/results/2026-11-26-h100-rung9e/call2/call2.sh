#!/usr/bin/env bash
# rung9e call 2, as sent (one line, here broken up), run from the repository root on the machine
# that call 1 left warm: call 1's build in .device-exp/src/build-gpu and its files in /tmp/r9e.
cd .device-exp/src && R=/tmp/r9e && tar czf $OUT/r9e-call1.tgz -C $R .
CLI=build-gpu/app/cli/tilescope-cli; B="bench --kernel stream-k --blocks 32x32 --seed 7 --tiling 128x256x32/64x64/8x16"
for h in 0 1; do TILESCOPE_SK_HYBRID=$h TILESCOPE_SK_KQ=2 timeout 60 $CLI $B --sizes 3000,5000 --grid-blocks 132 > $OUT/mid-h$h.txt 2>/dev/null; done
timeout 150 ctest --test-dir build-gpu -L gpu -R "stream_k|StreamK" --output-on-failure > $OUT/ctest.log 2>&1
timeout 150 $CLI bench --preset sizes --seed 7 > $OUT/bench-sizes.txt 2>/dev/null
for t in memcheck racecheck; do
  for a in "--dims 640,372,256 --tiling 128x256x32/64x64/8x16 --grid-blocks 2" "--dims 97,20,132 --tiling 32x64x8/16x32/4x4 --grid-blocks 5"; do
    echo "== $t $a"
    timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $CLI run --backend cuda --kernel stream-k $a 2>&1 |
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|verif|rror" | head -4
    echo "(exit ${PIPESTATUS[0]})"
  done
done > $OUT/sanitizers.log 2>&1
timeout 60 cuobjdump -sass $CLI 2>/dev/null | awk '/Function : /{p=/stream_k.*matrixMulKernel/} p' | gzip > $OUT/sass-stream-k.txt.gz
