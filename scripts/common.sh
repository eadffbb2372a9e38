# What the scripts share, sourced by each: the checks of their arguments, the build of the
# release binaries and where cargo put them, one timing, a field of a JSON line, and what a
# figure needs beside it to be compared (the machine, the build, the date).
#
# Each check calls the script's own `bad` (the reason and the usage on stderr, exit 2) when a
# value is wrong, before anything is built (a build takes minutes).

# Board sizes separated by spaces, each a whole number from 1 to 32.
check_sizes() {
  [ -n "${1// /}" ] || bad "-n needs at least one size"
  local n
  for n in $1; do
    if ! [[ $n =~ ^[0-9]{1,3}$ ]] || [ $((10#$n)) -lt 1 ] || [ $((10#$n)) -gt 32 ]; then
      bad "invalid board size '$n': expected a whole number from 1 to 32"
    fi
  done
}

# Thread counts separated by spaces, each a whole number from 1.
check_threads() {
  [ -n "${1// /}" ] || bad "-j needs at least one thread count"
  local t
  for t in $1; do
    [[ $t =~ ^[1-9][0-9]{0,3}$ ]] || bad "invalid thread count '$t': expected a whole number from 1"
  done
}

# A run count: a whole number from 1.
check_runs() {
  [[ $1 =~ ^[1-9][0-9]*$ ]] || bad "invalid run count '$1': expected a whole number from 1"
}

# A file the script writes when it is done, given with option $1: it can be written, so that
# a run does not end, after its build and its timings, on a missing directory. An existing
# file must be a writable file; a new one needs a writable directory.
check_output() {
  local option=$1 file=$2 dir
  [ -n "$file" ] || bad "$option needs a file name"
  dir=$(dirname -- "$file")
  if [ -d "$file" ]; then
    bad "$option $file: a directory, not a file"
  elif [ -e "$file" ]; then
    [ -w "$file" ] || bad "$option $file: cannot write to it"
  elif ! [ -d "$dir" ]; then
    bad "$option $file: no directory $dir"
  elif ! [ -w "$dir" ] || ! [ -x "$dir" ]; then
    bad "$option $file: cannot write to the directory $dir"
  fi
}

# Builds the release binaries named by the cargo arguments given (`--bin nqueens --example
# textbook`, `--features gpu`, ...) in the project at $root (set by the caller), quietly, and
# sets `release` to the folder they are in: CARGO_TARGET_DIR, a config's build.target-dir, or
# target/.
build_release() {
  (cd "$root" && cargo build --release --quiet "$@")
  local target
  target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  release=${target:-${CARGO_TARGET_DIR:-$root/target}}/release
}

# The median seconds of $runs runs of the command given as arguments (hyperfine's, with one
# warm-up run, when it is installed).
measure() {
  if command -v hyperfine >/dev/null; then
    local out
    out=$(mktemp)
    hyperfine -N --style none --warmup 1 --runs "$runs" --export-csv "$out" -- "$*" >/dev/null 2>&1
    awk -F, 'NR == 2 { print $4 }' "$out"
    rm -f "$out"
  else
    local times=() start end
    for _ in $(seq "$runs"); do
      start=$(date +%s.%N)
      "$@" >/dev/null
      end=$(date +%s.%N)
      times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
  fi
}

# The seconds one run of the command given as arguments takes (its output thrown away).
seconds_of() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }'
}

# Field NAME of a JSON object on one line (numbers, strings, true/false/null).
field() { sed -E "s/.*\"$1\":\"?([^,\"}]*)\"?.*/\1/" <<<"$2"; }

# The machine: its processor's model name and how many cores the process may use.
cpu_model() {
  sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1 |
    tr -s ' ' || true
}

# The build: the commit of the project at $root, with "+" when its tree has changes.
commit_of() {
  local commit
  commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) || { echo unknown; return; }
  if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit+"
  fi
  echo "$commit"
}
