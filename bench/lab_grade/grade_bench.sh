#!/usr/bin/env bash
# Grading time per file of `tilescope-cli lab grade` (bench/README.md, "Grading a class"):
# a class of N distinct honest solutions (each its own compile: a comment makes each file's
# text, and so its cache entry, its own), graded cold (an empty compile cache) and warm (the
# same class again, every kernel cached), at -j 1 and -j 8. Prints one line per case: wall
# seconds for the class, seconds per file, and the mean of the per-file `seconds` column
# of the CSV (what one file took, compile and runs, while others ran beside it).
#
#   bench/lab_grade/grade_bench.sh [CLI] [FILES] [EXERCISE]
#   defaults: build/app/cli/tilescope-cli, 16, missing_barrier (its solution in
#   tests/fixtures/lab/solutions; two sizes, four checks)
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cli="${1:-$here/build/app/cli/tilescope-cli}"
files="${2:-16}"
exercise="${3:-missing_barrier}"
solution="$here/tests/fixtures/lab/solutions/$exercise.cu"
[ -x "$cli" ] || { echo "no tilescope-cli at $cli (give its path)" >&2; exit 2; }
[ -f "$solution" ] || { echo "no solution for $exercise at $solution" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/class"
for i in $(seq 1 "$files"); do
  { echo "// student $i"; cat "$solution"; } > "$work/class/student_$i.cu"
done

echo "# lab grade $exercise: $files files, $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-4s %10s %14s %16s %s\n' case jobs wall_s s_per_file mean_file_s passed
run() {  # NAME JOBS CACHE
  local start end
  start=$(date +%s.%N)
  TILESCOPE_LAB_CACHE="$3" "$cli" lab grade "$exercise" "$work/class" -j "$2" --csv "$work/$1-$2.csv" > "$work/$1-$2.out"
  end=$(date +%s.%N)
  local mean passed
  mean=$(awk -F, 'NR > 1 { s += $(NF - 1); n++ } END { printf "%.3f", s / n }' "$work/$1-$2.csv")
  passed=$(tail -1 "$work/$1-$2.out" | cut -d' ' -f1)
  printf '%-6s %-4s %10.2f %14.3f %16s %s/%s\n' "$1" "$2" "$(echo "$end - $start" | bc)" \
    "$(echo "($end - $start) / $files" | bc -l)" "$mean" "$passed" "$files"
}
for jobs in 1 8; do
  cache="$work/cache-$jobs"
  run cold "$jobs" "$cache"
  run warm "$jobs" "$cache"
done
