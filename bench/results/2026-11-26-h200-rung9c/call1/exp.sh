#!/usr/bin/env bash
# rung9c: one device call. Variants of rung 9's stream-K build, chosen by environment in this
# experimental binary (TILESCOPE_SK_HYBRID=0: no data-parallel rounds, the old schedule;
# TILESCOPE_SK_KQ=1|2: the k-step's inner loop rolled / unrolled by 2 instead of whole).
set -u
D=$(cd "$(dirname "$0")" && pwd); C=$D/tilescope-cli; O=${OUT:-/tmp/out}; mkdir -p $O
export LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-}
s=$SECONDS
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv; } > $O/device.txt 2>&1
sweep() { # name env...
  local n=$1; shift
  env "$@" timeout 120 $C bench --preset sizes --seed 7 > $O/sizes-$n.txt 2>&1; echo "sizes-$n rc $? $((SECONDS-s)) s"
}
sweep hyb0-kq8 TILESCOPE_SK_HYBRID=0
sweep hyb1-kq8 X=1
sweep hyb1-kq1 TILESCOPE_SK_KQ=1
sweep hyb1-kq2 TILESCOPE_SK_KQ=2
sweep hyb0-kq1 TILESCOPE_SK_HYBRID=0 TILESCOPE_SK_KQ=1
sweep hyb0-kq8-b TILESCOPE_SK_HYBRID=0
sweep hyb1-kq8-b X=1
sweep hyb1-kq1-b TILESCOPE_SK_KQ=1
SECT="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats "
if command -v ncu >/dev/null || [ -x /usr/local/cuda/bin/ncu ]; then
  export PATH=$PATH:/usr/local/cuda/bin
  for v in "3000 hyb0 TILESCOPE_SK_HYBRID=0" "3000 hyb1 X=1" "1024 kq8 X=1" "1024 kq1 TILESCOPE_SK_KQ=1"; do
    set -- $v
    env $3 timeout 60 ncu --clock-control none -k regex:stream_k --launch-count 1 $SECT $C bench --kernels stream-k --sizes $1 --no-cublas --repeats 3 > $O/ncu-$1-$2.txt 2>&1; echo "ncu $1 $2 rc $? $((SECONDS-s)) s"
  done
fi
summ() { awk '$1=="stream-k"{sk[$3]=$5} $1=="tma-pipeline"{r8[$3]=$5} $1=="cuBLAS"{cb[$3]=$5; o[++n]=$3} END{for(i=1;i<=n;i++){d=o[i]; printf "  %s r9 %s r8 %s cublas %s GF r9 %.1f%%  r8 %.1f%%\n", d, sk[d], r8[d], cb[d], (cb[d]>0?100*sk[d]/cb[d]:0), (cb[d]>0?100*r8[d]/cb[d]:0)}}' $1; }
for f in $O/sizes-*.txt; do echo "== $(basename $f)"; summ $f; grep -c "verified:" $f; done
echo total $((SECONDS-s)) s
