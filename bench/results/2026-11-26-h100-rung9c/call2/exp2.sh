#!/usr/bin/env bash
# rung9c call 2: the rule (the SK build's inner loop by 2 where a block's share is >= 16
# k-steps, else whole) without and with data-parallel rounds, against the old loop (KQ=8).
set -u
D=$(cd "$(dirname "$0")" && pwd); C=$D/tilescope-cli; O=${OUT:-/tmp/out}; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
s=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; nvcc --version | tail -2;
  cuobjdump --dump-resource-usage $C 2>/dev/null | grep -A1 "plain8stream_k" | grep -B1 REG; } > $O/device.txt 2>&1
sweep() { # name env...
  local n=$1; shift
  echo "######## $n: $*" >> $O/sizes.txt
  env "$@" timeout 120 $C bench --preset sizes --seed 7 >> $O/sizes.txt 2>&1; echo "$n rc $? $((SECONDS-s)) s"
}
sweep rule-a X=1
sweep old-kq8-a TILESCOPE_SK_KQ=8
sweep rule-hyb1-a TILESCOPE_SK_HYBRID=1
sweep rule-b X=1
sweep old-kq8-b TILESCOPE_SK_KQ=8
sweep rule-hyb1-b TILESCOPE_SK_HYBRID=1
SECT="--section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats"
for v in "1024 rule X=1" "1536 kq8 TILESCOPE_SK_KQ=8" "1536 rule X=1" "3000 kq8 TILESCOPE_SK_KQ=8" "3000 rule X=1"; do
  set -- $v
  echo "######## ncu $1 $2 $3" >> $O/ncu.txt
  env $3 timeout 60 ncu --clock-control none --kernel-name-base demangled -k regex:stream_k --launch-count 1 $SECT $C bench --kernels stream-k --sizes $1 --no-cublas --repeats 3 --warmup 1 >> $O/ncu.txt 2>&1; echo "ncu $1 $2 rc $? $((SECONDS-s)) s"
done
summ() { awk '/^########/{print; next} $1=="stream-k"{sk[$3]=$5} $1=="tma-pipeline"{r8[$3]=$5} $1=="cuBLAS"{cb[$3]=$5; o[++n]=$3} /^sweep wall/{for(i=1;i<=n;i++){d=o[i]; printf "  %s r9 %s r8 %s cublas %s GF r9 %.1f%%  r8 %.1f%%\n", d, sk[d], r8[d], cb[d], (cb[d]>0?100*sk[d]/cb[d]:0), (cb[d]>0?100*r8[d]/cb[d]:0)}; n=0}' $1; }
summ $O/sizes.txt | tee $O/summary.txt
grep -c "verified:" $O/sizes.txt
grep -E "^########|Duration|Registers Per|L2 Hit Rate|DRAM Throughput|Compute \(SM\) Throughput|No Eligible|Issued Warp Per|Warp Cycles Per Issued|Executed Instructions  " $O/ncu.txt | head -80
cat $O/device.txt | tail -12
echo total $((SECONDS-s)) s
