#!/usr/bin/env bash
# Times `nqueens count` for a range of board sizes, engines and thread counts beside the
# project's own textbook counter (examples/textbook.rs), in the same run; checks every count
# against the textbook counter's; prints a Markdown table of speed-ups, writes a CSV, and
# draws an SVG chart of time against n and of thread scaling (examples/chart.rs).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/bench.sh [-n SIZES] [-j THREADS] [-e ENGINES] [-r RUNS] [-o CSV] [-s SVG] [-h]

Times `nqueens count` beside the project's textbook counter, checks every count against it,
prints a Markdown table of speed-ups, writes a CSV and draws an SVG chart.

  -n SIZES     board sizes, 1 to 32, separated by spaces (default "12 13 14 15 16 17")
  -j THREADS   thread counts (default "1 N", N the number of cores)
  -e ENGINES   engines: join, search (the search with its default symmetry, full), the
               search's symmetries full and mirror, and auto (default "join full")
  -r RUNS      runs per timing (default 3)
  -o FILE      CSV file (default bench.csv)
  -s FILE      SVG file (default bench.svg)
  -h, --help   this help

Uses hyperfine (apt-get install hyperfine) when it is installed, else times the runs itself.
NQUEENS_RELEASE=DIR takes nqueens and the examples textbook and chart from DIR, already built.

  scripts/bench.sh
  scripts/bench.sh -n "14 15 16" -j "1 2" -e join -r 5 -o bench.csv -s bench.svg
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "bench.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

sizes="12 13 14 15 16 17"
threads="1 $(nproc)"
engines="join full"
runs=3
csv=bench.csv
svg=bench.svg
while getopts ":n:j:e:r:o:s:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    j) threads=$OPTARG ;;
    e) engines=$OPTARG ;;
    r) runs=$OPTARG ;;
    o) csv=$OPTARG ;;
    s) svg=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

check_sizes "$sizes"
check_threads "$threads"
[ -n "${engines// /}" ] || bad "-e needs at least one engine"
for engine in $engines; do
  case $engine in
    auto | join | search | dfs | full | mirror) ;;
    *) bad "unknown engine '$engine': expected join, search, full, mirror or auto" ;;
  esac
done
check_runs "$runs"
check_output -o "$csv"
check_output -s "$svg"
threads=$(tr ' ' '\n' <<<"$threads" | awk 'NF && !seen[$0]++' | tr '\n' ' ')

root=$(cd "$(dirname "$0")/.." && pwd)
need_scratch
build_release --bin nqueens --example textbook --example chart
bin=$release/nqueens
textbook=$release/examples/textbook
chart=$release/examples/chart

# Set by capture: the textbook's count and seconds, nqueens's count and seconds.
expected='' tb='' got='' e=''
echo "n,engine,threads,seconds,textbook_seconds,speedup" >"$csv"
echo "| n | engine | threads | nqueens (s) | textbook (s) | speed-up |"
echo "|---:|---|---:|---:|---:|---:|"
for n in $sizes; do
  capture expected "$textbook" "$n"
  capture tb measure "$textbook" "$n"
  for engine in $engines; do
    case $engine in
      auto | join | search | dfs) flags=(--engine "$engine") ;;
      full | mirror) flags=(--engine search --symmetry "$engine") ;;
    esac
    for t in $threads; do
      # The join engine counts n = 4 to 28 only: it says so with exit 2, and is skipped.
      status=0
      capture got "$bin" count "$n" -j "$t" "${flags[@]}" --quiet 2>/dev/null || status=$?
      if [ "$status" = 2 ] && [ "$engine" = join ]; then
        printf '| %s | %s | %s | skipped: outside the join engine'"'"'s sizes | | |\n' "$n" "$engine" "$t"
        continue
      fi
      if [ "$got" != "$expected" ]; then
        echo "n = $n, $engine, $(plural "$t" thread): nqueens printed $got, textbook $expected" >&2
        exit 1
      fi
      capture e measure "$bin" count "$n" -j "$t" "${flags[@]}" --quiet
      ratio=$(awk -v a="$tb" -v b="$e" 'BEGIN { printf "%.2f", a / b }')
      printf '| %s | %s | %s | %.3f | %.3f | %sx |\n' "$n" "$engine" "$t" "$e" "$tb" "$ratio"
      echo "$n,$engine,$t,$e,$tb,$ratio" >>"$csv"
    done
  done
done
"$chart" "$csv" "$svg"
echo
echo "wrote $csv and $svg"
