#!/usr/bin/env bash
# rung9d's last call: bench/ladder_tuning/rung9_device.sh on the committed tree (src/), then
# main's build (base/) through the same sweep, all in one tarball under $OUT.
set -uo pipefail
X=$(cd "$(dirname "$0")" && pwd)
O=${OUT:-/tmp/out}; mkdir -p "$O"; R=/tmp/r9; mkdir -p $R
export LD_LIBRARY_PATH=$X/base${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ln -sfn $X/../.device-deps $X/src/.device-deps
cd $X/src
bash bench/ladder_tuning/rung9_device.sh $R
tar czf $O/rung9d.tgz -C $R .
if [ $SECONDS -lt 545 ]; then
  timeout $((590 - SECONDS)) $X/base/tilescope-cli bench --preset sizes --seed 7 > $R/base-bench-sizes.txt 2>/dev/null
  echo "== main's build, same sweep:"; sed -n '/% of cuBLAS/,$p' $R/base-bench-sizes.txt | grep stream-k
  tar czf $O/rung9d.tgz -C $R .
fi
echo "final $SECONDS s"
