#!/usr/bin/env bash
# Times the GPU engine beside the CPU engines, all in one hyperfine run per board size, checks
# that every command prints the same count, and prints a Markdown table of times and of
# ratios against the first command of each size (the project's textbook counter,
# examples/textbook.rs, where it takes minutes at most: n <= 17; else the join engine on the
# CPU threads); then `count N --estimate --engine gpu` for the sizes asked.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/gpu-bench.sh [-n SIZES] [-e SIZES] [-r RUNS] [-a ADAPTER] [-j THREADS] [-h]

Times `nqueens count --engine gpu` (the join's tasks from n = 14, the search's below and
with --symmetry) beside the CPU engines (one hyperfine run per board size), checks that
every command prints the same count, and prints a Markdown table of times and of ratios
against the first row of each size: the textbook counter up to n = 17, the join engine on
the CPU threads from n = 18 (the textbook and the search take hours there).

  -n SIZES     board sizes, 1 to 32, separated by spaces (default "14 15 16")
  -e SIZES     board sizes to estimate on the GPU afterwards (`count N --estimate --engine
               gpu`), e.g. "27 28"; none by default
  -r RUNS      runs per command (default 3)
  -a ADAPTER   the GPU adapter: a part of its name (see `nqueens gpu-info`)
  -j THREADS   CPU threads for the CPU rows, and the GPU's host threads (default: one per
               core)
  -h, --help   this help

Needs hyperfine and jq (apt-get install hyperfine jq); builds with `--features gpu`, unless
NQUEENS and TEXTBOOK name prebuilt binaries (for a machine without a Rust toolchain).

  scripts/gpu-bench.sh                              # n = 14..16, 3 runs each
  scripts/gpu-bench.sh -n "18 19 20 21 22" -r 1 -e "27 28" -a H200
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "gpu-bench.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

sizes="14 15 16"
estimates=""
runs=3
adapter=""
threads=$(nproc)
while getopts ":n:e:r:a:j:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    e) estimates=$OPTARG ;;
    r) runs=$OPTARG ;;
    a) adapter=$OPTARG ;;
    j) threads=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

check_sizes "$sizes"
[[ -z ${estimates// /} ]] || check_sizes "$estimates"
check_runs "$runs"
[[ $threads != *" "* ]] || bad "invalid thread count '$threads': expected one whole number from 1"
check_threads "$threads"
for tool in hyperfine jq; do
  command -v "$tool" >/dev/null || { echo "gpu-bench.sh needs $tool (apt-get install $tool)" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
need_scratch
release=
if [[ -z ${NQUEENS:-} || -z ${TEXTBOOK:-} ]]; then
  build_release --features gpu --bin nqueens --example textbook
fi
bin=${NQUEENS:-$release/nqueens}
textbook=${TEXTBOOK:-$release/examples/textbook}
# Mesa's device-select layer complains on stderr without XDG_RUNTIME_DIR; harmless.
export NODEVICE_SELECT=1
gpu_args=(--engine gpu)
[[ -n $adapter ]] && gpu_args+=(--gpu-adapter "$adapter")
"$bin" gpu-info

echo
echo "| n | command | seconds (mean ± sd) | vs first row |"
echo "|---|---|---|---|"
for n in $sizes; do
  if [ "$n" -le 17 ]; then
    names=(textbook "search, 1 thread" "search, $(plural "$threads" thread)" "join, 1 thread"
      "join, $(plural "$threads" thread)" "gpu, $(plural "$threads" "host thread")" "gpu, search (full symmetry)")
    commands=(
      "$textbook $n"
      "$bin count $n --engine dfs -j 1"
      "$bin count $n --engine dfs -j $threads"
      "$bin count $n --engine join -j 1"
      "$bin count $n --engine join -j $threads"
      "$bin count $n ${gpu_args[*]} -j $threads"
      "$bin count $n ${gpu_args[*]} --symmetry full"
    )
  else
    names=("join, $(plural "$threads" thread)" "gpu, $(plural "$threads" "host thread")" "gpu, 1 host thread")
    commands=(
      "$bin count $n --engine join -j $threads"
      "$bin count $n ${gpu_args[*]} -j $threads"
      "$bin count $n ${gpu_args[*]} -j 1"
    )
  fi
  expected='' got='' # set by capture
  # Every command's count, once, against the first's (a warm-up for hyperfine too).
  # shellcheck disable=SC2086 # each command, split into its words
  capture expected ${commands[0]} 2>/dev/null || { echo "failed: ${commands[0]}" >&2; exit 1; }
  for i in "${!commands[@]}"; do
    # shellcheck disable=SC2086
    capture got ${commands[$i]} 2>/dev/null || { echo "failed: ${commands[$i]}" >&2; exit 1; }
    [[ $got == "$expected" ]] || { echo "n = $n: '${commands[$i]}' printed $got, '${commands[0]}' $expected" >&2; exit 1; }
  done
  out=$scratch/hyperfine.json
  run hyperfine -N --style none --runs "$runs" --export-json "$out" "${commands[@]}" >/dev/null 2>&1
  base=$(jq '.results[0].mean' "$out")
  for i in "${!commands[@]}"; do
    jq -r --arg n "$n" --arg name "${names[$i]}" --argjson base "$base" --argjson i "$i" \
      '.results[$i] | "| \($n) | \($name) | \(.mean * 1000 | round / 1000) ± \((.stddev // 0) * 1000 | round / 1000) | \($base / .mean * 100 | round / 100) |"' "$out"
  done
  rm -f "$out"
done
for n in $estimates; do
  echo
  run "$bin" count "$n" --estimate "${gpu_args[@]}" -j "$threads"
done
