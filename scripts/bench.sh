#!/usr/bin/env bash
# Times `nqueens count` for a range of board sizes, engines and thread counts beside the
# project's own textbook counter (examples/textbook.rs), in the same run; checks every count
# against the textbook counter's; prints a Markdown table of speed-ups, writes a CSV, and
# draws an SVG chart of time against n and of thread scaling (examples/chart.rs).
#
#   scripts/bench.sh                                    # n = 12..17, join and full, 1 and all threads
#   scripts/bench.sh -n "14 15 16" -j "1 2" -e join -r 5 -o bench.csv -s bench.svg
#
# Options: -n sizes, -j thread counts, -e engines (join, and the search's full and mirror),
# -r runs per timing, -o CSV file (default bench.csv), -s SVG file (default bench.svg).
# Uses hyperfine (apt-get install hyperfine) when it is installed, else times the runs itself.
set -euo pipefail

sizes="12 13 14 15 16 17"
threads="1 $(nproc)"
engines="join full"
runs=3
csv=bench.csv
svg=bench.svg
while getopts "n:j:e:r:o:s:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    j) threads=$OPTARG ;;
    e) engines=$OPTARG ;;
    r) runs=$OPTARG ;;
    o) csv=$OPTARG ;;
    s) svg=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
threads=$(tr ' ' '\n' <<<"$threads" | awk 'NF && !seen[$0]++' | tr '\n' ' ')

root=$(cd "$(dirname "$0")/.." && pwd)
(cd "$root" && cargo build --release --quiet --bin nqueens --example textbook --example chart)
bin=$root/target/release/nqueens
textbook=$root/target/release/examples/textbook
chart=$root/target/release/examples/chart

# median seconds of $runs runs of the command given as arguments
measure() {
  if command -v hyperfine >/dev/null; then
    local out
    out=$(mktemp)
    hyperfine -N --style none --warmup 1 --runs "$runs" --export-csv "$out" -- "$*" >/dev/null 2>&1
    awk -F, 'NR == 2 { print $4 }' "$out"
    rm -f "$out"
  else
    local times=()
    for _ in $(seq "$runs"); do
      local start end
      start=$(date +%s.%N)
      "$@" >/dev/null
      end=$(date +%s.%N)
      times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
  fi
}

echo "n,engine,threads,seconds,textbook_seconds,speedup" >"$csv"
echo "| n | engine | threads | nqueens (s) | textbook (s) | speed-up |"
echo "|---:|---|---:|---:|---:|---:|"
for n in $sizes; do
  expected=$("$textbook" "$n")
  tb=$(measure "$textbook" "$n")
  for engine in $engines; do
    case $engine in
      join) flags=(--engine join) ;;
      *) flags=(--engine dfs --symmetry "$engine") ;;
    esac
    for t in $threads; do
      got=$("$bin" count "$n" -j "$t" "${flags[@]}" --quiet)
      if [ "$got" != "$expected" ]; then
        echo "n = $n, $engine, $t threads: nqueens printed $got, textbook $expected" >&2
        exit 1
      fi
      e=$(measure "$bin" count "$n" -j "$t" "${flags[@]}" --quiet)
      ratio=$(awk -v a="$tb" -v b="$e" 'BEGIN { printf "%.2f", a / b }')
      printf '| %s | %s | %s | %.3f | %.3f | %sx |\n' "$n" "$engine" "$t" "$e" "$tb" "$ratio"
      echo "$n,$engine,$t,$e,$tb,$ratio" >>"$csv"
    done
  done
done
"$chart" "$csv" "$svg"
echo
echo "wrote $csv and $svg"
