#!/usr/bin/env bash
# rung9c call 3: the committed rule (branch rung9c at 5f982b8), `bench --preset sizes` twice.
set -u
D=$(cd "$(dirname "$0")" && pwd); C=$D/tilescope-cli; O=${OUT:-/tmp/out}; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
s=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv;
  cuobjdump --dump-resource-usage $C 2>/dev/null | grep -A1 "plain8stream_k" | grep -B1 REG; } > $O/device.txt 2>&1
for r in a b; do
  echo "######## run $r" >> $O/sizes.txt
  timeout 120 $C bench --preset sizes --seed 7 >> $O/sizes.txt 2>&1; echo "$r rc $? $((SECONDS-s)) s"
done
awk '/^########/{print; next} $1=="stream-k"{sk[$3]=$5} $1=="tma-pipeline"{r8[$3]=$5} $1=="cuBLAS"{cb[$3]=$5; o[++n]=$3} /^sweep wall/{for(i=1;i<=n;i++){d=o[i]; printf "  %s r9 %s r8 %s cublas %s GF r9 %.1f%%  r8 %.1f%%\n", d, sk[d], r8[d], cb[d], (cb[d]>0?100*sk[d]/cb[d]:0), (cb[d]>0?100*r8[d]/cb[d]:0)}; n=0}' $O/sizes.txt | tee $O/summary.txt
grep -c "verified:" $O/sizes.txt; grep "selector" $O/sizes.txt | sort -u | head -12
head -3 $O/device.txt
echo total $((SECONDS-s)) s
