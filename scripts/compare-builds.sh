#!/usr/bin/env bash
# Compares the working tree's build with another revision's, the way every performance change
# here is measured: the revision built in a git worktree of its own with its own target
# directory, then the same commands run with the two builds alternately (the order flipped
# each round), and each figure's ratio given with its spread over the rounds. Seconds drift
# from one minute to the next on a shared machine; the ratio of two runs side by side does
# not, or much less.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/compare-builds.sh [-r REV] [-R ROUNDS] [-h] [ARGS ...]

Builds REV beside the working tree and runs `nqueens ARGS` with both builds alternately,
ROUNDS rounds, each ARGS one quoted word. The figure of a run is the estimate's core-seconds
for `count ... --estimate --json`, else the run's wall-clock seconds. Prints each build's
median and the ratio working tree / REV (below 1: the working tree is faster) with its range.

  -r REV      the revision to compare with: a commit, tag or branch (default HEAD)
  -R ROUNDS   rounds (default 5)
  -h          this help
  ARGS        nqueens arguments, one quoted word per command (default "count 18 -j 2"
              "count 22 --estimate -j 2 --json")

  scripts/compare-builds.sh
  scripts/compare-builds.sh -r HEAD~3 -R 7 "count 20 -j 2" "count 26 --estimate --json"
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "compare-builds.sh: $1" >&2
  usage >&2
  exit 2
}

rev=HEAD
rounds=5
while getopts ":r:R:h" opt; do
  case $opt in
    r) rev=$OPTARG ;;
    R) rounds=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) bad "unknown option -$OPTARG" ;;
  esac
done
shift $((OPTIND - 1))
commands=("$@")
[ ${#commands[@]} -gt 0 ] || commands=("count 18 -j 2" "count 22 --estimate -j 2 --json")

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
check_runs "$rounds"
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || bad "unknown revision '$rev'"
for args in "${commands[@]}"; do
  read -r -a words <<<"$args"
  [ ${#words[@]} -gt 0 ] || bad "an empty command"
  case ${words[0]} in
    count | solve | find | verify) ;;
    *) bad "'$args': expected a count, solve, find or verify command" ;;
  esac
done

build_release --bin nqueens
new=$release/nqueens
# The revision's binary, kept by its commit: built once, in a worktree of its own, with a
# target directory of its own that later revisions share (their dependencies build once).
cache=$root/target/compare-builds
old=$cache/$commit/nqueens
if ! [ -x "$old" ]; then
  tree=$(mktemp -d)
  trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
  git -C "$root" worktree add --detach --quiet "$tree" "$commit"
  echo "compare-builds.sh: building $rev ($commit)" >&2
  (cd "$tree" && CARGO_TARGET_DIR=$cache/target cargo build --release --quiet --bin nqueens)
  mkdir -p "$cache/$commit"
  cp "$cache/target/release/nqueens" "$old"
  git -C "$root" worktree remove --force "$tree"
  trap - EXIT
fi

# The figure of one run of `$1 ARGS...`: the estimate's core-seconds, or the wall seconds.
figure() {
  local bin=$1
  shift
  if [[ " $* " == *" --estimate "* && " $* " == *" --json "* ]]; then
    field core_seconds "$("$bin" "$@" 2>/dev/null)"
  else
    seconds_of "$bin" "$@"
  fi
}

# The median of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "compare-builds.sh: $rounds rounds of ${#commands[@]} commands, alternately" >&2
declare -A olds news ratios
for round in $(seq "$rounds"); do
  for i in "${!commands[@]}"; do
    read -r -a words <<<"${commands[$i]}"
    # Counts agree, or nothing is compared.
    if [ "$round" = 1 ] && [[ ${words[0]} == count && " ${words[*]} " != *" --estimate "* ]]; then
      a=$("$old" "${words[@]}" 2>/dev/null | tail -1)
      b=$("$new" "${words[@]}" 2>/dev/null | tail -1)
      [ "$a" = "$b" ] || { echo "compare-builds.sh: '${commands[$i]}': $rev printed $a, the working tree $b" >&2; exit 1; }
    fi
    if [ $((round % 2)) = 1 ]; then
      o=$(figure "$old" "${words[@]}")
      n=$(figure "$new" "${words[@]}")
    else
      n=$(figure "$new" "${words[@]}")
      o=$(figure "$old" "${words[@]}")
    fi
    olds[$i]="${olds[$i]:-} $o"
    news[$i]="${news[$i]:-} $n"
    ratios[$i]="${ratios[$i]:-} $(awk -v a="$o" -v b="$n" 'BEGIN { printf "%.4f", b / a }')"
  done
done

short=$(git -C "$root" rev-parse --short=12 "$commit")
echo "working tree $(commit_of) against $rev ($short) · $(cpu_model), $(nproc) cores · $(date -u +%Y-%m-%d) · $rounds rounds, alternated"
echo
echo "| command | figure | $rev | working tree | ratio (median) | ratio (range) |"
echo "|---|---|---:|---:|---:|---:|"
for i in "${!commands[@]}"; do
  # shellcheck disable=SC2086
  {
    o=$(median ${olds[$i]})
    n=$(median ${news[$i]})
    r=$(median ${ratios[$i]})
    range=$(printf '%s\n' ${ratios[$i]} | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
  }
  kind="wall s"
  [[ " ${commands[$i]} " == *" --estimate "* && " ${commands[$i]} " == *" --json "* ]] && kind="core-s"
  printf '| `nqueens %s` | %s | %.4g | %.4g | %.3f | %s |\n' "${commands[$i]}" "$kind" "$o" "$n" "$r" "$range"
done
