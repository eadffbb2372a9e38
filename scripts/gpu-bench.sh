#!/usr/bin/env bash
# Times the GPU engine beside the CPU engines and the project's textbook counter
# (examples/textbook.rs, one thread), all in one hyperfine run per board size, checks that every
# command prints the same count, and prints a Markdown table of times and of ratios against the
# textbook counter (above 1: faster than it).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/gpu-bench.sh [-n SIZES] [-r RUNS] [-a ADAPTER] [-j THREADS] [-h]

Times `nqueens count --engine gpu` beside the CPU engines and the textbook counter (one
hyperfine run per board size), checks that every command prints the same count, and prints a
Markdown table of times and of ratios against the textbook counter.

  -n SIZES     board sizes, 1 to 32, separated by spaces (default "12 13 14 15")
  -r RUNS      runs per command (default 3)
  -a ADAPTER   the GPU adapter: a part of its name (see `nqueens gpu-info`)
  -j THREADS   CPU threads for the multi-threaded CPU rows (default: one per core)
  -h           this help

Needs hyperfine and jq (apt-get install hyperfine jq); builds with `--features gpu`, unless
NQUEENS and TEXTBOOK name prebuilt binaries (for a machine without a Rust toolchain).

  scripts/gpu-bench.sh                       # n = 12..15, 3 runs each
  scripts/gpu-bench.sh -n "16 17" -r 5 -a H200
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "gpu-bench.sh: $1" >&2
  usage >&2
  exit 2
}

sizes="12 13 14 15"
runs=3
adapter=""
threads=$(nproc)
while getopts ":n:r:a:j:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    r) runs=$OPTARG ;;
    a) adapter=$OPTARG ;;
    j) threads=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) bad "unknown option -$OPTARG" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1'"

# shellcheck source=scripts/checks.sh
source "$(dirname "$0")/checks.sh"
check_sizes "$sizes"
check_runs "$runs"
[[ $threads != *" "* ]] || bad "invalid thread count '$threads': expected one whole number from 1"
check_threads "$threads"
for tool in hyperfine jq; do
  command -v "$tool" >/dev/null || { echo "gpu-bench.sh needs $tool (apt-get install $tool)" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
release=
if [[ -z ${NQUEENS:-} || -z ${TEXTBOOK:-} ]]; then
  (cd "$root" && cargo build --release --quiet --features gpu --bin nqueens --example textbook)
  # Where cargo put them: CARGO_TARGET_DIR, a config's build.target-dir, or target/.
  target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  release=${target:-${CARGO_TARGET_DIR:-$root/target}}/release
fi
bin=${NQUEENS:-$release/nqueens}
textbook=${TEXTBOOK:-$release/examples/textbook}
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
