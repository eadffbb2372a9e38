#!/usr/bin/env bash
# Cross-checks the join engine against the backtracking search and the known counts (OEIS
# A000170) for a range of board sizes, and reports each engine's time and the process's peak
# memory. Exits 1 at the first disagreement.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/compare.sh [-n A..B] [-j T] [-J] [-o FILE] [-h]

Cross-checks the join engine against the search and the known counts (OEIS A000170), and
reports each engine's time and peak memory. Exits 1 at the first disagreement.

  -n A..B      board sizes, 1 <= A <= B <= 32, or one size N (default 4..18); the join
               engine is skipped where it does not count (below n = 4, above n = 28)
  -j T         worker threads (default: one per core)
  -J           the join engine alone (the search takes hours beyond n = 18)
  -o FILE      CSV file to write (default compare.csv)
  -h, --help   this help

NQUEENS_RELEASE=DIR takes nqueens from DIR, already built, instead of building it.

  scripts/compare.sh                       # n = 4..18, both engines, all threads
  scripts/compare.sh -n 16..20 -j 2 -J     # the join engine alone
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "compare.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

sizes=4..18
threads=$(nproc)
join_only=0
csv=compare.csv
while getopts ":n:j:Jo:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    j) threads=$OPTARG ;;
    J) join_only=1 ;;
    o) csv=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

if [[ $sizes =~ ^([0-9]{1,3})\.\.([0-9]{1,3})$ ]]; then
  from=$((10#${BASH_REMATCH[1]}))
  to=$((10#${BASH_REMATCH[2]}))
elif [[ $sizes =~ ^[0-9]{1,3}$ ]]; then
  from=$((10#$sizes))
  to=$from
else
  bad "invalid sizes '$sizes': expected A..B or N"
fi
if [ "$from" -lt 1 ] || [ "$to" -gt 32 ] || [ "$from" -gt "$to" ]; then
  bad "invalid sizes '$sizes': expected 1 <= A <= B <= 32"
fi
[[ $threads =~ ^[1-9][0-9]*$ ]] || bad "invalid thread count '$threads': expected a whole number from 1"
check_output -o "$csv"

root=$(cd "$(dirname "$0")/.." && pwd)
build_release --bin nqueens
bin=$release/nqueens

line= # set by capture
engines="join search"
[ "$join_only" = 1 ] && engines="join"
echo "n,engine,threads,solutions,known,seconds,peak_memory_bytes" >"$csv"
echo "| n | engine | solutions | known | seconds | peak memory (MiB) |"
echo "|---:|---|---:|---:|---:|---:|"
for n in $(seq "$from" "$to"); do
  first=""
  for engine in $engines; do
    # The join engine counts n = 4 to 28 only: it says so with exit 2, and is skipped.
    status=0
    capture line "$bin" count "$n" --engine "$engine" -j "$threads" --json --quiet 2>/dev/null || status=$?
    if [ "$status" = 2 ] && [ "$engine" = join ]; then
      printf '| %s | %s | skipped: outside the join engine'"'"'s sizes | | | |\n' "$n" "$engine"
      continue
    fi
    if [ "$status" != 0 ] && [ "$status" != 1 ]; then
      echo "n = $n: nqueens count --engine $engine failed (exit $status)" >&2
      exit 1
    fi
    solutions=$(field solutions "$line")
    known=$(field known "$line")
    seconds=$(field seconds "$line")
    peak=$(field peak_memory_bytes "$line")
    mib=-
    [ "$peak" = null ] || mib=$(awk -v b="$peak" 'BEGIN { printf "%.1f", b / 1048576 }')
    printf '| %s | %s | %s | %s | %.3f | %s |\n' "$n" "$engine" "$solutions" "$known" "$seconds" "$mib"
    echo "$n,$engine,$threads,$solutions,$known,$seconds,$peak" >>"$csv"
    # No known count beyond n = 27: then only the engines are compared.
    if [ "$(field match "$line")" = false ]; then
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
