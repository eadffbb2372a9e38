#!/usr/bin/env bash
# Times every instruction-set build of both engines on this one machine: `count N --engine E
# -j 1` under each `NQUEENS_ISA` cap the processor runs (avx512, avx2, portable), the caps
# alternated within each round (their order turned each round), and writes a Markdown table
# of each build's median seconds and its time over the best build's; then pastes it into the
# pages that show it. Every count is checked against the first cap's.
set -euo pipefail

usage() {
  cat <<'EOF2'
usage: scripts/isa-builds.sh [-n SIZES] [-R ROUNDS] [-o FILE] [-h]

Builds nqueens, then times `count N --engine join -j 1` and `count N --engine search -j 1`
for each size under each NQUEENS_ISA cap this processor runs, ROUNDS rounds, the caps
alternated. Writes FILE: a table of each build's median seconds and its time over the first
cap's (the best), and pastes it into README.md and docs/*.md where they mark it
(<!-- builds: FILE -->).

  -n SIZES    board sizes, quoted (default "16 17 18")
  -R ROUNDS   rounds (default 3)
  -o FILE     the table (default docs/builds/vm-2-cores.md)
  -h, --help  this help

  scripts/isa-builds.sh
  scripts/isa-builds.sh -n "16 17" -R 5 -o /tmp/builds.md
EOF2
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "isa-builds.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

root=$(cd "$(dirname "$0")/.." && pwd)
sizes="16 17 18"
rounds=3
output=$root/docs/builds/vm-2-cores.md
while getopts ":n:R:o:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    R) rounds=$OPTARG ;;
    o) output=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"
check_sizes "$sizes"
check_runs "$rounds"
check_output -o "$output"

need_scratch
build_release --bin nqueens
nqueens=$release/nqueens
# The caps this processor runs, the most first: a cap it lacks is refused (exit 2).
caps=()
for cap in avx512 avx2 portable; do
  if NQUEENS_ISA=$cap "$nqueens" count 4 >/dev/null 2>&1; then
    caps+=("$cap")
  fi
done
echo "isa-builds.sh: caps this processor runs: ${caps[*]}" >&2

# Runs `nqueens ARGS` under cap $1, its count to the file $2; sets `took` to its seconds.
time_capped() {
  local cap=$1 out=$2 start end
  shift 2
  start=$(date +%s.%N)
  NQUEENS_ISA=$cap run "$nqueens" "$@" >"$out"
  end=$(date +%s.%N)
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
}

header="| engine | n |"
rule="|---|---:|"
for cap in "${caps[@]}"; do
  header+=" $cap s |"
  rule+="---:|"
done
for cap in "${caps[@]:1}"; do
  header+=" $cap / ${caps[0]} |"
  rule+="---:|"
done
rows=()
for engine in join search; do
  for n in $sizes; do
    declare -A times=()
    for round in $(seq "$rounds"); do
      # The caps' order turned each round, so that each meets the machine's drift alike.
      for i in "${!caps[@]}"; do
        cap=${caps[$(((i + round) % ${#caps[@]}))]}
        time_capped "$cap" "$scratch/$cap.out" count "$n" --engine "$engine" -j 1
        times[$cap]+=" $took"
        if ! cmp -s "$scratch/$cap.out" "$scratch/${caps[$(((round) % ${#caps[@]}))]}.out"; then
          echo "isa-builds.sh: $engine n = $n counted otherwise under $cap" >&2
          exit 1
        fi
      done
      echo "isa-builds.sh: $engine n = $n round $round:$(for c in "${caps[@]}"; do printf ' %s %s' "$c" "${times[$c]##* }"; done)" >&2
    done
    row="| $engine | $n |"
    declare -A medians=()
    for cap in "${caps[@]}"; do
      # shellcheck disable=SC2086 # the times, one word each
      medians[$cap]=$(median ${times[$cap]})
      row+=" ${medians[$cap]} |"
    done
    for cap in "${caps[@]:1}"; do
      row+=" $(awk -v a="${medians[$cap]}" -v b="${medians[${caps[0]}]}" 'BEGIN { printf "%.2fx", a / b }') |"
    done
    rows+=("$row")
    unset times medians
  done
done
{
  echo "<!-- made by scripts/isa-builds.sh; run it again rather than edit -->"
  echo "\`count N --engine E -j 1\` under each \`NQUEENS_ISA\` cap, $(plural "$rounds" round) alternated, median seconds ·"
  echo "machine: $(cpu_model); build $(commit_of); $(date -u +%Y-%m-%d)"
  echo
  echo "$header"
  echo "$rule"
  printf '%s\n' "${rows[@]}"
} >"$scratch/table"
mv "$scratch/table" "$output"
paste_into_pages builds "$output"
cat "$output"
