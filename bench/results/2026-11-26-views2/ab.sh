#!/bin/sh
# Old and new back to back, alternating, on the same loaded machine (issue 29 item 6, the views'
# cost while playing): each run plays tiled 64^3 T=16 at 1920x1080 (../2026-11-26-frame/play_64.txt)
# and prints its frame report; uptime before each run gives the load it ran under.
#   sh ab.sh OLD_BINARY NEW_BINARY ROUNDS OUT_DIR
old=$1 new=$2 rounds=${3:-3} out=${4:-.}
script=$(dirname "$0")/../2026-11-26-frame/play_64.txt
i=1
while [ "$i" -le "$rounds" ]; do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    f="$out/$which-$i.txt"
    { date -u; uptime; } > "$f"
    xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" --size 1920x1080 --script "$script" 2>&1 | grep -E "^frames|^app work|^request" >> "$f"
  done
  i=$((i + 1))
done
