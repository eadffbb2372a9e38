#!/usr/bin/env bash
# Times the GPU engine beside the CPU engines and the project's textbook counter
# (examples/textbook.rs, one thread), all in one hyperfine run per board size, checks that every
# command prints the same count, and prints a Markdown table of times and of ratios against the
# textbook counter (above 1: faster than it).
#
#   scripts/gpu-bench.sh                       # n = 12..15, 3 runs each
#   scripts/gpu-bench.sh -n "16 17" -r 5 -a H200
#
# Options: -n sizes, -r runs per command, -a GPU adapter name (substring; see `nqueens gpu-info`),
# -j CPU threads for the multi-threaded CPU rows (default: all cores). Needs hyperfine
# (apt-get install hyperfine) and builds with `--features gpu`. NQUEENS and TEXTBOOK may name
# prebuilt binaries instead (for a machine without a Rust toolchain).
set -euo pipefail

sizes="12 13 14 15"
runs=3
adapter=""
threads=$(nproc)
while getopts "n:r:a:j:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    r) runs=$OPTARG ;;
    a) adapter=$OPTARG ;;
    j) threads=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
command -v hyperfine >/dev/null || { echo "gpu-bench.sh needs hyperfine" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${NQUEENS:-} || -z ${TEXTBOOK:-} ]]; then
  (cd "$root" && cargo build --release --quiet --features gpu --bin nqueens --example textbook)
fi
bin=${NQUEENS:-$root/target/release/nqueens}
textbook=${TEXTBOOK:-$root/target/release/examples/textbook}
# Mesa's device-select layer complains on stderr without XDG_RUNTIME_DIR; harmless.
export NODEVICE_SELECT=1
gpu_args=(--engine gpu)
[[ -n $adapter ]] && gpu_args+=(--gpu-adapter "$adapter")
"$bin" gpu-info

echo
echo "| n | command | seconds (mean ± sd) | vs textbook |"
echo "|---|---|---|---|"
for n in $sizes; do
  names=(textbook "search, 1 thread" "search, $threads threads" "join, $threads threads"
    "gpu, full symmetry" "gpu, mirror")
  commands=(
    "$textbook $n"
    "$bin count $n --engine dfs -j 1"
    "$bin count $n --engine dfs -j $threads"
    "$bin count $n --engine join -j $threads"
    "$bin count $n ${gpu_args[*]}"
    "$bin count $n ${gpu_args[*]} --symmetry mirror"
  )
  expected=$($textbook "$n")
  for i in "${!commands[@]}"; do
    got=$(${commands[$i]} 2>/dev/null) || { echo "failed: ${commands[$i]}" >&2; exit 1; }
    [[ $got == "$expected" ]] || { echo "n = $n: '${commands[$i]}' printed $got, textbook $expected" >&2; exit 1; }
  done
  out=$(mktemp)
  hyperfine -N --style none --warmup 1 --runs "$runs" --export-json "$out" "${commands[@]}" >/dev/null 2>&1
  base=$(jq '.results[0].mean' "$out")
  for i in "${!commands[@]}"; do
    jq -r --arg n "$n" --arg name "${names[$i]}" --argjson base "$base" --argjson i "$i" \
      '.results[$i] | "| \($n) | \($name) | \(.mean * 1000 | round / 1000) ± \((.stddev // 0) * 1000 | round / 1000) | \($base / .mean * 100 | round / 100) |"' "$out"
  done
  rm -f "$out"
done
