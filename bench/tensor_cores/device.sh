#!/usr/bin/env bash
# A tensor-core rung on a GPU in one call from the repository root, without the app's build (a
# minute or two of compiling on 16 cores): its GPU trace against the emulator's
# (mma_trace_main.cpp), and the timing beside cuBLAS TF32, cuBLAS FP32, rung 9 and the other
# tensor-core rung (mma_bench.cu).
#   [KERNEL=wgmma_tf32] [SANITIZE=0] bench/tensor_cores/device.sh [OUTDIR] [N ...]
#   (KERNEL: the traced rung's file name, mma_tf32 unless set; SANITIZE=0 skips compute-sanitizer;
#   OUTDIR: $OUT, else bench/results/tensor-run)
# Writes device.txt, build.log, trace.txt, bench.txt (and anything the sanitizers print,
# sanitizers.log) into OUTDIR. A COMMIT file at the root names the commit in device.txt.
set -uo pipefail
OUT=${1:-${OUT:-bench/results/tensor-run}}
KERNEL=${KERNEL:-mma_tf32}
shift || true
mkdir -p "$OUT"
S=$SECONDS
GEN=$(mktemp -d)
ARCH="-gencode=arch=compute_90a,code=sm_90a"
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; nvcc --version | tail -1;
  cat COMMIT 2>/dev/null || git log -1 --oneline 2>/dev/null; } >"$OUT/device.txt" 2>&1
(
  set -e
  # The declaration rewrite, as the build runs it, for the traced kernel.
  g++ -O1 -std=c++20 -I. kernels/rewrite/declaration_rewrite.cpp kernels/rewrite/rewrite_main.cpp -o "$GEN/rewrite"
  mkdir -p "$GEN/kernels_gen/traced"
  "$GEN/rewrite" kernels/ladder/$KERNEL.cuh "$GEN/kernels_gen/traced/$KERNEL.cuh" kernels/ladder/$KERNEL.cuh
  mkdir -p "$GEN/support" "$GEN/trace"
  # What both programs link: tensor maps, rung 9's workspace, the CUDA checks (and the build's
  # GPU code, which the checks name: here sm_90a).
  for f in tensor_map stream_k_workspace cuda_check gpu_code; do
    g++ -O2 -std=c++20 -I. -I/usr/local/cuda/include -DTILESCOPE_CUDA_ARCHS='"90a-real"' -DTILESCOPE_CUDA_CHECK_ONLY=0 \
      -c kernels/cuda/$f.cpp -o "$GEN/support/$f.o" &
  done
  nvcc -O3 -std=c++20 $ARCH -I. ${CANDIDATES:+-DMMA_CANDIDATES} -c bench/tensor_cores/mma_bench.cu -o "$GEN/bench.o" &
  # The traced kernel's unit, timed: the GPU build's units should stay under a minute each.
  ( T=$SECONDS; nvcc -O2 -std=c++20 $ARCH -I. -I"$GEN" -DTRACE_KERNEL=$KERNEL -c bench/tensor_cores/mma_trace_gpu.cu \
      -o "$GEN/trace/gpu.o" && echo "traced unit ($KERNEL, both tilings): $((SECONDS - T)) s" ) &
  for f in bench/tensor_cores/mma_trace_emu.cpp bench/tensor_cores/mma_trace_main.cpp kernels/emu/emulator.cpp \
           kernels/emu/fiber.cpp; do
    g++ -O2 -std=c++20 -Wno-unknown-pragmas -I. -I"$GEN" -DTRACE_KERNEL=$KERNEL -c "$f" -o "$GEN/trace/$(basename "$f").o" &
  done
  wait
  nvcc "$GEN/bench.o" "$GEN"/support/*.o -lcublas -o "$GEN/mma_bench"
  nvcc "$GEN"/trace/*.o "$GEN"/support/*.o -lcublas -o "$GEN/mma_trace"
) >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "build $((SECONDS - S)) s"
grep "traced unit" "$OUT/build.log"
timeout 240 "$GEN/mma_trace" >"$OUT/trace.txt" 2>&1
echo "trace: exit $? ($(tail -1 "$OUT/trace.txt"))"
if [ "${SANITIZE:-1}" != 0 ] && command -v compute-sanitizer >/dev/null; then
  { for tool in memcheck racecheck; do echo "== $tool"; timeout 90 compute-sanitizer --tool $tool "$GEN/mma_trace" 2>&1 | tail -4; done; } >"$OUT/sanitizers.log" 2>&1
  grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/sanitizers.log"
fi
timeout 300 "$GEN/mma_bench" "$@" >"$OUT/bench.txt" 2>&1
echo "bench: exit $?"
# Why the rung is where it is against cuBLAS TF32: its builds' instruction mix (SASS), and
# Nsight Compute on its first tiling at N = 4096 (cuBLAS TF32 runs wgmma: HGMMA in its SASS).
cuobjdump -sass "$GEN/mma_bench" | awk -v k="$KERNEL" '/Function :/ { f = $3 } f ~ k {
    for (op in ops) if ($0 ~ ops[op]) n[f, op]++ }
  BEGIN { ops["HMMA"] = "HMMA"; ops["HGMMA"] = "HGMMA"; ops["WARPGROUP"] = "WARPGROUP"; ops["LDS"] = "LDS";
          ops["LDGSTS"] = "LDGSTS"; ops["BAR"] = "BAR.SYNC"; ops["SYNCS"] = "SYNCS" }
  END { for (k in n) { split(k, p, SUBSEP); print p[1], p[2], n[k] } }' | sort >"$OUT/sass-summary.txt" 2>&1
if command -v ncu >/dev/null; then
  timeout 90 ncu --kernel-name-base mangled --kernel-name regex:"[0-9]${KERNEL}" --launch-count 1 --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section WarpStateStats "$GEN/mma_bench" 4096 >"$OUT/ncu-4096.txt" 2>&1
  # cuBLAS TF32's own kernel beside it (its name, tiles and instruction mix), where ncu finds it.
  timeout 90 ncu --kernel-name regex:"[Tt][Ff]32" --launch-count 1 --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats \
    "$GEN/mma_bench" 4096 >"$OUT/ncu-cublas-4096.txt" 2>&1
  grep -E "^  [a-zA-Z_].*\(|SM Busy|Compute \(SM\) Throughput|Duration|Issue Slots Busy" "$OUT/ncu-4096.txt" | head -20
fi
grep -E "cuBLAS|rung" "$OUT/bench.txt" | awk '{print}' | cut -c1-150
echo "total $((SECONDS - S)) s"
