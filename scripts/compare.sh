#!/usr/bin/env bash
# Cross-checks the join engine against the backtracking search and the known counts (OEIS
# A000170) for a range of board sizes, and reports each engine's time and the process's peak
# memory. Exits 1 at the first disagreement.
#
#   scripts/compare.sh                       # n = 4..18, both engines, all threads
#   scripts/compare.sh -n 16..20 -j 2 -J     # the join engine alone (the search takes hours)
#
# Options: -n A..B sizes, -j threads, -J join engine only, -o CSV file (default compare.csv).
set -euo pipefail

sizes=4..18
threads=$(nproc)
join_only=0
csv=compare.csv
while getopts "n:j:Jo:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    j) threads=$OPTARG ;;
    J) join_only=1 ;;
    o) csv=$OPTARG ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && cargo build --release --quiet --bin nqueens)
bin=$root/target/release/nqueens

# field NAME of a JSON object on one line (numbers, strings, true/false/null)
field() { sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"; }

engines="join dfs"
[ "$join_only" = 1 ] && engines=join
echo "n,engine,threads,solutions,known,seconds,peak_memory_bytes" >"$csv"
echo "| n | engine | solutions | known | seconds | peak memory (MiB) |"
echo "|---:|---|---:|---:|---:|---:|"
from=${sizes%..*}
to=${sizes#*..}
for n in $(seq "$from" "$to"); do
  first=""
  for engine in $engines; do
    line=$("$bin" count "$n" --engine "$engine" -j "$threads" --json --quiet)
    solutions=$(field solutions "$line")
    known=$(field known "$line")
    seconds=$(field seconds "$line")
    peak=$(field peak_memory_bytes "$line")
    mib=$( [ "$peak" = null ] && echo - || awk -v b="$peak" 'BEGIN { printf "%.1f", b / 1048576 }')
    printf '| %s | %s | %s | %s | %.3f | %s |\n' "$n" "$engine" "$solutions" "$known" "$seconds" "$mib"
    echo "$n,$engine,$threads,$solutions,$known,$seconds,$peak" >>"$csv"
    if [ "$(field match "$line")" != true ]; then
      echo "n = $n: the $engine engine counted $solutions, the known count is $known" >&2
      exit 1
    fi
    if [ -n "$first" ] && [ "$solutions" != "$first" ]; then
      echo "n = $n: the engines disagree ($first and $solutions)" >&2
      exit 1
    fi
    first=$solutions
  done
done
echo
echo "every count agreed; wrote $csv"
