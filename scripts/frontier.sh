#!/usr/bin/env bash
# Makes the benchmark tables: full counts where they take a few minutes at most, `--estimate`
# of the sizes beyond, each figure in core-seconds, core-ns per solution and yardsticks (the
# textbook counter's time at n = 16, timed before, between and after them on this machine);
# every count checked against the known values. The cache yardstick of `nqueens bench
# --yardsticks` (a walk of a 1 MiB table, ns a step) is timed at the same three moments: it
# follows the caches, which the join engine reads and a machine's neighbours share, as the
# textbook counter follows the processor's pace. Writes a Markdown table headed by what a
# reader needs to compare it (date, version and commit, processor and cores, both yardsticks'
# times, the command), a CSV, and an SVG chart of core-ns per solution against n with a line
# for this run and for each CSV given with -a (other builds or machines); and pastes the table
# into the pages of the project that show it.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/frontier.sh [-c SIZES] [-e SIZES] [-j T] [-l LABEL] [-y YARDSTICK] [-a CSV]... [-o PREFIX] [-h]

Counts and estimates the sizes asked, beside the textbook yardstick and the cache yardstick
(`nqueens bench --yardsticks`: ns a step of a walk of a 1 MiB table), each timed before,
between and after, and writes PREFIX.md (a Markdown table with its header, both yardsticks'
times in it), PREFIX.csv (the cache's median in its column cache_ns_per_step) and PREFIX.svg
(core-ns per solution against n); pastes the table into README.md and docs/*.md where they
mark it (<!-- frontier: PREFIX.md -->).

  -c SIZES      full counts, checked against the known values (default "16 17 18 19 20";
                "" for none)
  -e SIZES      estimates, `count N --estimate` (default "22 23 24 25 26 27 28"; "" for none)
  -j T          worker threads (default: one per core)
  -l LABEL      this run's name in the chart (default: the processor and thread count)
  -y YARDSTICK  the yardstick: a program that takes N and prints the count, or a C file
                compiled with cc -O3 -march=native (default: examples/textbook.rs)
  -a CSV        a CSV of an earlier run of this script to draw beside this one (repeatable)
  -o PREFIX     where to write (default "frontier": frontier.md, frontier.csv, frontier.svg)
  -h, --help    this help

NQUEENS_RELEASE=DIR takes nqueens and the examples textbook and frontier_chart from DIR,
already built, instead of building them.

  scripts/frontier.sh
  scripts/frontier.sh -c "16 17" -e "22 24" -o /tmp/quick
  scripts/frontier.sh -y ../textbook.c -a docs/frontier/vm-2-cores.csv -l "16 cores"
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "frontier.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

invocation="scripts/frontier.sh$(printf ' %q' "$@")"
counts="16 17 18 19 20"
estimates="22 23 24 25 26 27 28"
threads=$(nproc)
label=""
yardstick=""
others=()
prefix=frontier
while getopts ":c:e:j:l:y:a:o:h" opt; do
  case $opt in
    c) counts=$OPTARG ;;
    e) estimates=$OPTARG ;;
    j) threads=$OPTARG ;;
    l) label=$OPTARG ;;
    y) yardstick=$OPTARG ;;
    a) others+=("$OPTARG") ;;
    o) prefix=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

[[ -z ${counts// /} ]] || check_sizes "$counts"
[[ -z ${estimates// /} ]] || check_sizes "$estimates"
[[ -n ${counts// /}${estimates// /} ]] || bad "nothing to do: -c and -e are both empty"
for n in $estimates; do
  [ "$n" -ge 4 ] || bad "invalid estimate size '$n': the estimates here are of 4 and up"
done
[[ $threads != *" "* ]] || bad "invalid thread count '$threads': expected one whole number from 1"
check_threads "$threads"
[[ $label != *[$'\n\r']* ]] || bad "-l: a label of one line"
if [ -n "$yardstick" ] && ! [ -f "$yardstick" ]; then
  bad "-y $yardstick: no such file"
fi
for csv in "${others[@]}"; do
  [ -f "$csv" ] || bad "-a $csv: no such file"
  head -1 "$csv" | grep -q '^label,' || bad "-a $csv: not a CSV of this script"
done
for ext in md csv svg; do
  check_output -o "$prefix.$ext"
done

root=$(cd "$(dirname "$0")/.." && pwd)
build_release --bin nqueens --example textbook --example frontier_chart
bin=$release/nqueens
chart=$release/examples/frontier_chart
yardstick_name="examples/textbook.rs (the classic bitmask counter, one thread)"
yardstick_bin=$release/examples/textbook
if [[ $yardstick == *.c ]]; then
  need_scratch
  yardstick_bin=$scratch/yardstick
  run cc -O3 -march=native -o "$yardstick_bin" "$yardstick"
  yardstick_name="$(basename "$yardstick") (cc -O3 -march=native, one thread)"
elif [ -n "$yardstick" ]; then
  yardstick_bin=$(cd "$(dirname "$yardstick")" && pwd)/$(basename "$yardstick")
  yardstick_name="$(basename "$yardstick")"
fi
yardstick_count= # set by capture
capture yardstick_count "$yardstick_bin" 16
[ "$yardstick_count" = 14772512 ] || { echo "frontier.sh: the yardstick did not count n = 16 right" >&2; exit 1; }

cpu=$(cpu_model)
cores=$(nproc)
[ -n "$label" ] || label="${cpu:-this machine}, $(plural "$threads" thread)"
version=$("$bin" --version | awk '{ print $2 }')
commit=$(commit_of)
date=$(date -u +%Y-%m-%d)

# The median of three figures (the arguments).
median_of() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

# How far the largest of the figures given lies above the smallest, in whole %.
spread_of() {
  printf '%s\n' "$@" | sort -g | awk '{ t[NR] = $1 } END { printf "%.0f", (t[NR] / t[1] - 1) * 100 }'
}

# The yardsticks at one moment: the textbook yardstick's time at n = 16, three times in a row
# (their median joins `yardsticks`), then the cache yardstick, `nqueens bench --yardsticks`'s
# walk of a 1 MiB table (its ns a step joins `caches`).
yardsticks=()
caches=()
bench= # set by capture
time_yardstick() {
  local t=() seconds cache
  for _ in 1 2 3; do
    capture seconds seconds_of "$yardstick_bin" 16
    t+=("$seconds")
  done
  yardsticks+=("$(median_of "${t[@]}")")
  capture bench "$bin" bench --yardsticks --json
  cache=$(field cache_ns_per_step "$bench")
  if ! [[ $cache =~ ^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; then
    echo "frontier.sh: nqueens bench --yardsticks --json gave no cache_ns_per_step: $bench" >&2
    exit 1
  fi
  caches+=("$(awk -v c="$cache" 'BEGIN { printf "%.4g", c }')")
}

# Q(28) is not known: a figure per solution there takes Q(27) times the ratio Q(27)/Q(26)
# grown as the ratios before it grew (Q(26)/Q(25) to Q(27)/Q(26)): about 11.0 Q(27). Empty
# past 28.
extrapolated() {
  [ "$1" = 28 ] || return 0
  awk 'BEGIN { q25 = 2207893435808352; q26 = 22317699616364044; q27 = 234907967154122528
    r = q27 / q26; printf "%.0f", q27 * r * (r / (q26 / q25)) }'
}

line= # set by capture
rows=()
add_row() { rows+=("$1"); }

time_yardstick
for n in $counts; do
  echo "frontier.sh: count $n on $(plural "$threads" thread)" >&2
  capture line "$bin" count "$n" -j "$threads" --json --quiet
  if [ "$(field match "$line")" != true ]; then
    echo "frontier.sh: n = $n: counted $(field solutions "$line"), the known count is $(field known "$line")" >&2
    exit 1
  fi
  seconds=$(field seconds "$line")
  solutions=$(field solutions "$line")
  core=$(awk -v s="$seconds" -v t="$threads" 'BEGIN { printf "%.6g", s * t }')
  add_row "$n,count,$solutions,$core,0,$seconds,$(field engine "$line"),$(field peak_memory_bytes "$line")"
done
time_yardstick
for n in $estimates; do
  echo "frontier.sh: estimate of $n on $(plural "$threads" thread)" >&2
  capture line "$bin" count "$n" -j "$threads" --estimate --json --quiet
  solutions=$(field known "$line")
  [ "$solutions" != null ] || solutions=$(extrapolated "$n")
  add_row "$n,estimate,$solutions,$(field core_seconds "$line"),$(field error "$line"),$(field seconds "$line"),$(field engine "$line"),$(field peak_memory_bytes "$line")"
done
time_yardstick

median=$(median_of "${yardsticks[@]}")
spread=$(spread_of "${yardsticks[@]}")
cache_median=$(median_of "${caches[@]}")
cache_spread=$(spread_of "${caches[@]}")

csv=$prefix.csv
echo "label,date,version,commit,cpu,cores,threads,yardstick_seconds,cache_ns_per_step,n,kind,solutions,core_seconds,error,seconds,engine,peak_memory_bytes,core_ns_per_solution,yardsticks" >"$csv"
table=()
for row in "${rows[@]}"; do
  IFS=, read -r n kind solutions core error seconds engine peak <<<"$row"
  per=$(awk -v c="$core" -v s="$solutions" 'BEGIN { if (s > 0) printf "%.4g", c * 1e9 / s; else printf "" }')
  units=$(awk -v c="$core" -v y="$median" 'BEGIN { printf "%.4g", c / y }')
  csv_line "$label" "$date" "$version" "$commit" "$cpu" "$cores" "$threads" "$median" "$cache_median" "$n" \
    "$kind" "$solutions" "$core" "$error" "$seconds" "$engine" "$peak" "$per" "$units" >>"$csv"
  figure=$(awk -v c="$core" -v e="$error" 'BEGIN {
    if (c >= 1e5) { m = sprintf("%.3e", c); sub(/e\+0?/, " × 10^", m) } else m = sprintf("%.4g", c)
    if (e > 0) printf "%s (± %.1f %%)", m, e * 100; else printf "%s", m }')
  hours=$(awk -v c="$core" 'BEGIN { printf "%.3g", c / 3600 }')
  approx=""
  [ "$n" = 28 ] && approx="≈ "
  table+=("| $n | $kind | $figure | $hours | ${per:+$approx$per} | $units |")
done

md=$prefix.md
{
  echo "<!-- made by scripts/frontier.sh; run it again rather than edit -->"
  echo "**$label** · $date · nqueens $version ($commit) · $cpu, $(plural "$cores" core), $(plural "$threads" thread) ·"
  echo "yardstick $yardstick_name at n = 16: $(printf '%s s, ' "${yardsticks[@]}" | sed 's/, $//') (before, between, after; spread $spread %) ·"
  echo "cache yardstick \`nqueens bench --yardsticks\` (a walk of a 1 MiB table, one thread): $(printf '%s, ' "${caches[@]}" | sed 's/, $//') ns a step (before, between, after; spread $cache_spread %) ·"
  echo "\`$invocation\`"
  echo
  echo "| n | how | core-seconds | core-hours | core-ns per solution | yardsticks |"
  echo "|---:|---|---:|---:|---:|---:|"
  printf '%s\n' "${table[@]}"
} >"$md"

"$chart" "$prefix.svg" "$csv" "${others[@]}"
paste_into_pages frontier "$md"
cat "$md"
echo
echo "wrote $md, $csv and $prefix.svg" >&2
