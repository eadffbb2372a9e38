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
usage: scripts/compare-builds.sh [-r REV] [-b BINARY] [-R ROUNDS] [-h] [ARGS ...]

Builds REV beside the working tree and runs `nqueens ARGS` with both builds alternately,
ROUNDS rounds, each ARGS one quoted word. The figure of a run is the estimate's core-seconds
for `count ... --estimate --json`, else the run's wall-clock seconds. Prints each build's
median and the ratio working tree / REV (below 1: the working tree is faster) with its range.
Each command runs once in each build first: one that fails in either, or prints other
results (timings aside; estimates are not compared), stops the script with exit 1.

  -r REV      the revision to compare with: a commit, tag or branch (default HEAD)
  -b BINARY   compare with this nqueens, already built, instead of building a revision
  -R ROUNDS   rounds (default 5)
  -h, --help  this help
  ARGS        nqueens arguments, one quoted word per command (default "count 18 -j 2"
              "count 22 --estimate -j 2 --json")

NQUEENS_RELEASE=DIR takes the working tree's build from DIR/nqueens instead of building it.

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

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

rev=HEAD
binary=
rounds=5
while getopts ":r:b:R:h" opt; do
  case $opt in
    r) rev=$OPTARG ;;
    b) binary=$OPTARG ;;
    R) rounds=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
commands=("$@")
[ ${#commands[@]} -gt 0 ] || commands=("count 18 -j 2" "count 22 --estimate -j 2 --json")

check_runs "$rounds"
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$binary" ]; then
  if ! [ -f "$binary" ] || ! [ -x "$binary" ]; then
    bad "-b $binary: not an executable file"
  fi
else
  commit=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || bad "unknown revision '$rev'"
fi
for args in "${commands[@]}"; do
  read -r -a words <<<"$args"
  [ ${#words[@]} -gt 0 ] || bad "an empty command"
  case ${words[0]} in
    count | solve | find | verify) ;;
    *) bad "'$args': expected a count, solve, find or verify command" ;;
  esac
done

need_scratch
build_release --bin nqueens
new=$release/nqueens
if [ -n "$binary" ]; then
  # The other build is named by its path.
  old=$binary
  rev=$binary
  against=$binary
else
  # The revision's binary, kept by its commit: built once, in a worktree of its own (removed
  # however the script ends), with a target directory of its own that later revisions share
  # (their dependencies build once).
  cache=$root/target/compare-builds
  old=$cache/$commit/nqueens
  if ! [ -x "$old" ]; then
    tree=$scratch/tree
    remove_tree() {
      if [ -e "$tree" ]; then git -C "$root" worktree remove --force "$tree"; fi
    }
    on_exit remove_tree
    git -C "$root" worktree add --detach --quiet "$tree" "$commit"
    echo "compare-builds.sh: building $rev ($commit)" >&2
    CARGO_TARGET_DIR=$cache/target run within "$tree" cargo build --release --quiet --bin nqueens
    mkdir -p "$cache/$commit"
    cp "$cache/target/release/nqueens" "$old"
    remove_tree
  fi
  against="$rev ($(git -C "$root" rev-parse --short=12 "$commit"))"
fi

# Runs build $1 (old or new) with the nqueens arguments after $2, its output to the file $2,
# and sets `took` to its wall-clock seconds. A failure stops the script: the command, the
# build and its exit code on one line, then the command's own stderr.
run_build() {
  local build=$1 out=$2 bin=$new name="the working tree's build" start end status=0
  shift 2
  [ "$build" = new ] || { bin=$old name="the build of $against"; }
  start=$(date +%s.%N)
  run "$bin" "$@" >"$out" 2>"$scratch/stderr" || status=$?
  end=$(date +%s.%N)
  if [ "$status" != 0 ]; then
    echo "compare-builds.sh: 'nqueens $*' failed in $name with exit code $status; its stderr:" >&2
    cat "$scratch/stderr" >&2
    exit 1
  fi
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
}

# What the output in file $1 says, without what changes from run to run: of each JSON line its
# result fields alone (no seconds, memory, engine, tasks or rates); of other lines, the words
# but those of a `seconds` column, one space between.
results() {
  awk '
    /^[{]/ {
      s = $0; r = ""
      while (match(s, /"(n|solutions|unique|classes|known|known_unique|match)":([{][^}]*[}]|[^,}]*)/)) {
        r = r substr(s, RSTART, RLENGTH) " "
        s = substr(s, RSTART + RLENGTH)
      }
      print r
      next
    }
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") skip = i }
    { r = ""; for (i = 1; i <= NF; i++) if (i != skip) r = r $i " "; print r }
  ' "$1"
}

# Whether the nqueens arguments given are an estimate; one whose figure is its core-seconds.
is_estimate() { [[ " $* " == *" --estimate "* ]]; }
by_core_seconds() { is_estimate "$@" && [[ " $* " == *" --json "* ]]; }

# The figure of one run of build $1 with the nqueens arguments after it, in `figure`: the
# estimate's core-seconds (summed over a range's sizes), or the wall-clock seconds.
measure_build() {
  local build=$1
  shift
  if by_core_seconds "$@"; then
    run_build "$build" "$scratch/out" "$@"
    figure=$(grep -o '"core_seconds":[^,}]*' "$scratch/out" |
      awk -F: '{ s += $2; n++ } END { if (n) printf "%.6g", s }')
    if [ -z "$figure" ]; then
      echo "compare-builds.sh: 'nqueens $*' printed no core_seconds in the $build build" >&2
      exit 1
    fi
  else
    run_build "$build" /dev/null "$@"
    figure=$took
  fi
}

# Each command once in each build before any timing: both succeed, and print the same results
# (an estimate samples at random: only its success counts).
for args in "${commands[@]}"; do
  read -r -a words <<<"$args"
  run_build old "$scratch/old.out" "${words[@]}"
  run_build new "$scratch/new.out" "${words[@]}"
  is_estimate "${words[@]}" && continue
  if ! cmp -s <(results "$scratch/old.out") <(results "$scratch/new.out"); then
    {
      echo "compare-builds.sh: 'nqueens $args' printed other results in the two builds; $against:"
      results "$scratch/old.out" | head -5
      echo "the working tree:"
      results "$scratch/new.out" | head -5
    } >&2
    exit 1
  fi
done
rm -f "$scratch/old.out" "$scratch/new.out"

echo "compare-builds.sh: $(plural "$rounds" round) of $(plural ${#commands[@]} command), alternately" >&2
declare -A olds news ratios
for round in $(seq "$rounds"); do
  for i in "${!commands[@]}"; do
    read -r -a words <<<"${commands[$i]}"
    if [ $((round % 2)) = 1 ]; then
      measure_build old "${words[@]}"
      o=$figure
      measure_build new "${words[@]}"
      n=$figure
    else
      measure_build new "${words[@]}"
      n=$figure
      measure_build old "${words[@]}"
      o=$figure
    fi
    olds[$i]="${olds[$i]:-} $o"
    news[$i]="${news[$i]:-} $n"
    # A ratio needs REV's figure above 0: an estimate of no work (n = 3) has 0 core-seconds,
    # and its round has no ratio (the table says so, rather than print nan or inf).
    ratio=$(awk -v a="$o" -v b="$n" 'BEGIN { if (a > 0) printf "%.4f", b / a }')
    ratios[$i]="${ratios[$i]:-}${ratio:+ $ratio}"
  done
done

echo "working tree $(commit_of) against $against · $(cpu_model), $(plural "$(nproc)" core) · $(date -u +%Y-%m-%d) · $(plural "$rounds" round), alternated"
echo
echo "| command | figure | $rev | working tree | ratio (median) | ratio (range) |"
echo "|---|---|---:|---:|---:|---:|"
for i in "${!commands[@]}"; do
  # shellcheck disable=SC2086 # the lists of figures, split into their numbers
  {
    o=$(median ${olds[$i]})
    n=$(median ${news[$i]})
    if [ -n "${ratios[$i]:-}" ]; then
      r=$(printf '%.3f' "$(median ${ratios[$i]})")
      range=$(printf '%s\n' ${ratios[$i]} | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
    else
      r="none (a figure of 0)"
      range="none"
    fi
    kind="wall s"
    if by_core_seconds ${commands[$i]}; then kind="core-s"; fi
  }
  # shellcheck disable=SC2016 # Markdown's backquotes
  printf '| `nqueens %s` | %s | %.4g | %.4g | %s | %s |\n' "${commands[$i]}" "$kind" "$o" "$n" "$r" "$range"
done
