#!/usr/bin/env bash
# Grading time per file of `tilescope-cli lab grade` (bench/README.md, "Grading a class"): a
# class of FILES files made of the lab's examples (assets/lab/examples) and every exercise's
# starter, repeated in turn (each copy with a comment of its own), graded against EXERCISE by the
# lab's interpreter. Prints one line per -j: wall seconds for the class, seconds per file, the
# mean of the CSV's per-file `seconds` column (what one file took while others ran beside it),
# and how many passed (the starters and examples are not solutions of EXERCISE: most fail, which
# is graded as fully as a pass).
#
#   bench/lab_grade/grade_bench.sh [CLI] [FILES] [EXERCISE] [JOBS...]
#   defaults: build/app/cli/tilescope-cli, 200, bounds_jkl (four sizes, five checks), -j 1 and 2
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cli="${1:-$here/build/app/cli/tilescope-cli}"
files="${2:-200}"
exercise="${3:-bounds_jkl}"
shift $(( $# < 3 ? $# : 3 ))
jobs_list=("${@:-1 2}")
[ -x "$cli" ] || { echo "no tilescope-cli at $cli (give its path)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/sources" "$work/class"
cp "$here"/assets/lab/examples/*.cu "$work/sources/"
for x in "$here"/assets/exercises/*.exercise; do  # a starter: the lines after `starter:`
  sed -n '/^starter:/,$p' "$x" | tail -n +2 > "$work/sources/starter_$(basename "$x" .exercise).cu"
done
mapfile -t sources < <(ls "$work/sources"/*.cu)
for i in $(seq 1 "$files"); do
  src="${sources[$(( (i - 1) % ${#sources[@]} ))]}"
  { echo "// student $i"; cat "$src"; } > "$work/class/student_$i.cu"
done

echo "# lab grade $exercise: $files files (${#sources[@]} distinct: the examples and starters), $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-4s %10s %12s %14s %s\n' jobs wall_s s_per_file mean_file_s passed
for jobs in ${jobs_list[*]}; do
  start=$(date +%s.%N)
  "$cli" lab grade "$exercise" "$work/class" -j "$jobs" --csv "$work/grade-$jobs.csv" > "$work/grade-$jobs.out" || true
  end=$(date +%s.%N)
  mean=$(awk -F, 'NR > 1 { s += $(NF - 1); n++ } END { printf "%.4f", s / n }' "$work/grade-$jobs.csv")
  rows=$(( $(wc -l < "$work/grade-$jobs.csv") - 1 ))
  passed=$(tail -1 "$work/grade-$jobs.out" | cut -d' ' -f1)
  printf '%-4s %10.2f %12.4f %14s %s (%s rows)\n' "$jobs" "$(echo "$end - $start" | bc)" \
    "$(echo "($end - $start) / $files" | bc -l)" "$mean" "$passed" "$rows"
done
