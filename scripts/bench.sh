#!/usr/bin/env bash
# Times `nqueens count` for a range of board sizes and thread counts beside the project's own
# textbook counter (examples/textbook.rs), in the same run, and prints a Markdown table of
# speed-ups; every count is checked against the textbook counter's.
#
#   scripts/bench.sh                      # n = 12..16, 1 thread and all threads
#   scripts/bench.sh -n "14 15 16 17" -j "1 2" -r 5 -o results.csv
#
# Uses hyperfine (apt-get install hyperfine) when it is installed, else times the runs itself.
set -euo pipefail

sizes="12 13 14 15 16"
threads="1 $(nproc)"
runs=3
csv=""
extra=()
while getopts "n:j:r:o:e:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    j) threads=$OPTARG ;;
    r) runs=$OPTARG ;;
    o) csv=$OPTARG ;;
    e) read -r -a extra <<<"$OPTARG" ;;
    *) sed -n '2,9p' "$0"; exit 2 ;;
  esac
done
threads=$(tr ' ' '\n' <<<"$threads" | awk 'NF && !seen[$0]++' | tr '\n' ' ')

cd "$(dirname "$0")/.."
cargo build --release --quiet --bin nqueens --example textbook
bin=target/release/nqueens
textbook=target/release/examples/textbook

# median seconds of $runs runs of the command given as arguments
measure() {
  if command -v hyperfine >/dev/null; then
    local out
    out=$(mktemp)
    hyperfine -N --style none --warmup 1 --runs "$runs" --export-csv "$out" -- "$*" >/dev/null
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

[ -n "$csv" ] && echo "n,threads,engine_seconds,textbook_seconds,speedup" >"$csv"
echo "| n | threads | nqueens (s) | textbook (s) | speed-up |"
echo "|---:|---:|---:|---:|---:|"
for n in $sizes; do
  expected=$("$textbook" "$n")
  tb=$(measure "$textbook" "$n")
  for t in $threads; do
    got=$("$bin" count "$n" -j "$t" --quiet "${extra[@]}")
    if [ "$got" != "$expected" ]; then
      echo "n = $n, $t threads: nqueens printed $got, textbook $expected" >&2
      exit 1
    fi
    e=$(measure "$bin" count "$n" -j "$t" --quiet "${extra[@]}")
    ratio=$(awk -v a="$tb" -v b="$e" 'BEGIN { printf "%.2f", a / b }')
    printf '| %s | %s | %.3f | %.3f | %sx |\n' "$n" "$t" "$e" "$tb" "$ratio"
    [ -n "$csv" ] && echo "$n,$t,$e,$tb,$ratio" >>"$csv"
  done
done
