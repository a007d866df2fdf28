#!/bin/sh
# The page's last build step (app/platform/CMakeLists.txt, after the link):
#   finish_site.sh SITE GZIP BROTLI
# 1. index.html learns the sizes of the files it loads, so its loading text counts every byte
#    (shell.html, TILESCOPE_FILE_SIZES);
# 2. every file of the site gets a .gz and a .br beside it, for a host that serves precompressed
#    files (assets/guides/teacher.md, "Putting the page on a course site").
set -eu
site=$1 gzip=$2 brotli=$3
cd "$site"
size() { wc -c < "$1" | tr -d ' '; }
sizes="\"index.js\": $(size index.js), \"index.wasm\": $(size index.wasm), \"index.data\": $(size index.data)"
sed -i "s|/\*TILESCOPE_FILE_SIZES\*/|$sizes|" index.html
find . -type f \( -name '*.gz' -o -name '*.br' \) -exec rm -f {} +
find . -type f ! -name '*.gz' ! -name '*.br' | while read -r f; do
  "$gzip" -9 -n -k -f "$f"
  "$brotli" -q 11 -f -o "$f.br" "$f"
done
