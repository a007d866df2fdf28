#!/usr/bin/env bash
# The browser's floor under the flags a test browser may be given (bench/README.md, "The web
# page"): bench/web/trace.mjs on the floor page (one WebGL2 quad a frame at 1280x720) once per
# configuration, each a fresh browser, one after another; then the table. Figures, not a test.
#   bench/web/floor_flags.sh OUTDIR [FRAMES]
set -euo pipefail
out=${1:?usage: floor_flags.sh OUTDIR [FRAMES]}
frames=${2:-300}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
run() {  # NAME QUERY FLAGS [--no-swiftshader-flags]
  local name=$1 query=$2 flags=$3; shift 3
  node "$here/trace.mjs" --page floor --frames "$frames" --query "$query" --flags "$flags" "$@" \
    --json "$out/$name.json" >"$out/$name.txt" 2>&1 || echo "$name: failed (see $out/$name.txt)"
}
run as-tested        'draw=quad' ''
run clear-only       'draw=clear' ''
run no-gl            'draw=none' ''
run every-5th        'draw=quad&every=5' ''
run preserve         'draw=quad&preserve=1' ''
run desynchronized   'draw=quad&desynchronized=1' ''
run dpr-0.5          'draw=quad&dpr=0.5' ''
run no-gpu-vsync     'draw=quad' '--disable-gpu-vsync'
run no-frame-limit   'draw=quad' '--disable-frame-rate-limit --disable-gpu-vsync'
run sw-compositing   'draw=quad' '--disable-gpu-compositing'
run in-process-gpu   'draw=quad' '--in-process-gpu'
run mesa-llvmpipe    'draw=quad' '--use-angle=gl-egl --enable-unsafe-swiftshader --ignore-gpu-blocklist' --no-swiftshader-flags
node "$here/floor_table.mjs" "$out"/*.json | tee "$out/table.md"
