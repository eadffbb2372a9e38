# shellcheck shell=bash disable=SC2154 # $root is the calling script's
# What the scripts share, sourced by each before it reads its options: the answer to an
# option it does not know (--help among them), the checks of their arguments, the build of the
# release binaries and where cargo put them, one timing, a median, a field of a JSON line, a
# CSV line, a count with its noun, what a figure needs beside it to be compared (the machine,
# the build, the date), a made file pasted into the pages that show it, and the cleanup of
# whatever a script starts, however it ends.
#
# Each check calls the script's own `bad` (the reason and the usage on stderr, exit 2) when a
# value is wrong, before anything is built (a build takes minutes).

# ---------------------------------------------------------------------------------------------
# Cleanup. A script ends normally, on an error under `set -e`, or on SIGINT (Ctrl-C), SIGTERM
# or SIGHUP; every way, `finish` (the EXIT trap) kills what is still running of what the script
# started in the background (with their children), then runs the commands given to `on_exit`,
# last given first (a git worktree removed, the scratch folder). A long command runs through
# `run` or `capture`: in the background, the script waiting for it, because bash acts on a
# signal only between commands, and would otherwise hold a SIGTERM until a count of an hour
# ended (a `$(...)` holds it as long as its command).

exit_commands=()

# Runs the command given (words, quoted as they are) when the script ends, however it ends.
on_exit() { exit_commands+=("$(printf '%q ' "$@")"); }

# The process $1 and all its descendants, parents first.
family() {
  local child
  echo "$1"
  for child in $(pgrep -P "$1" 2>/dev/null || true); do
    family "$child"
  done
}

# Whether process $1 runs: it exists and is not a zombie (one whose parent has not yet heard of
# its end: a job's child, killed with it, waits for init so).
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { kill -0 "$1" 2>/dev/null; return; }
  [[ ${stat##*) } != Z* ]]
}

# Kills every background job of the script and its descendants: SIGTERM (nqueens saves its
# journal on it), then SIGKILL to whatever still runs 5 seconds later.
stop_jobs() {
  local pids=() pid alive
  for pid in $(jobs -p); do
    # shellcheck disable=SC2207 # pids, one a line
    pids+=($(family "$pid"))
  done
  [ ${#pids[@]} -gt 0 ] || return 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do
      running "$pid" && alive=1 && break
    done
    [ "$alive" = 1 ] || break
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}

# The EXIT trap: the jobs stopped, then the exit commands run. The script's exit status stays.
finish() {
  local i
  stop_jobs
  for ((i = ${#exit_commands[@]} - 1; i >= 0; i--)); do
    eval "${exit_commands[i]}" || true
  done
  exit_commands=()
}

# A signal's trap: the cleanup, then the signal again, now with its default action, so that
# whatever started the script sees it stopped by the signal (a shell loop stops on Ctrl-C).
stop_on() {
  trap - EXIT
  finish
  trap - "$1"
  kill -s "$1" $$
  exit "$2"
}

trap finish EXIT
trap 'stop_on INT 130' INT
trap 'stop_on TERM 143' TERM
trap 'stop_on HUP 129' HUP

# Runs the command given (a program or a function) in the background and waits for it; its
# exit status is the command's. A signal then stops the script at once, and the command with it
# (`finish`). Its standard input is /dev/null, as for any background command.
run() {
  "$@" &
  wait $!
}

# Runs the command given like `run` and sets the variable named $1 to its output, less its
# final newlines (as `var=$(command)` does, which would hold a signal until the command ends).
# Its exit status is the command's.
capture() {
  local capture_var=$1 capture_file capture_status=0
  shift
  need_scratch
  capture_file=$(mktemp "$scratch/capture.XXXXXX")
  run "$@" >"$capture_file" || capture_status=$?
  printf -v "$capture_var" '%s' "$(<"$capture_file")"
  rm -f "$capture_file"
  return "$capture_status"
}

# Runs the command given (the rest) in folder $1; for `run within DIR ...`, in the background,
# where the change of folder does not reach the script.
within() {
  cd "$1" || return
  shift
  "$@"
}

# `scratch`: a folder for the script's temporary files, made on first use and removed when the
# script ends. Made in the script's own shell (a `$(...)`'s shell has no exit trap to remove
# it): the helpers that need it call this first.
scratch=
need_scratch() {
  [ -z "$scratch" ] || return 0
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/nqueens-${0##*/}.XXXXXX")
  on_exit rm -rf "$scratch"
}

# ---------------------------------------------------------------------------------------------
# Options and arguments.

# The getopts loop's answer to an option it does not know: $1 is getopts' OPTARG, $2 the word
# it came in (`"${!OPTIND:-}"`). getopts reads `--help` as the option `-`: that is the usage,
# on stdout, exit 0; anything else is one line that says so and points to --help, exit 2.
unknown_option() {
  local option=-$1
  [[ $1 == - && ${2:-} == --* ]] && option=${2%%=*}
  if [ "$option" = --help ]; then
    usage
    exit 0
  fi
  echo "${0##*/}: unknown option $option (see scripts/${0##*/} --help)" >&2
  exit 2
}

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
# target/. With NQUEENS_RELEASE set, that folder holds them, already built (nqueens, and the
# examples in examples/): nothing is built, and a program missing there is an error.
build_release() {
  if [ -n "${NQUEENS_RELEASE:-}" ]; then
    release=${NQUEENS_RELEASE%/}
    local program
    while [ $# -gt 0 ]; do
      case $1 in
        --bin) program=$release/$2 ;;
        --example) program=$release/examples/$2 ;;
        *) shift; continue ;;
      esac
      [ -x "$program" ] || { echo "${0##*/}: NQUEENS_RELEASE: no program $program" >&2; exit 2; }
      shift 2
    done
    return 0
  fi
  run within "$root" cargo build --release --quiet "$@"
  local target
  target=$(cd "$root" && cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
  release=${target:-${CARGO_TARGET_DIR:-$root/target}}/release
}

# The seconds one run of the command given as arguments takes (its output thrown away).
seconds_of() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }'
}

# The median of the numbers given.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

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

# The count $1 and its noun: $2 for one, else $3 (default: $2 with an s). "1 round", "3 rounds".
plural() {
  if [ "$1" = 1 ]; then
    echo "$1 $2"
  else
    echo "$1 ${3:-${2}s}"
  fi
}

# A CSV line (RFC 4180) of the fields given: a field with a comma, a double quote or a line
# break is put in double quotes, its own double quotes doubled.
csv_line() {
  local field fields=() IFS=,
  for field in "$@"; do
    if [[ $field == *[,\"$'\n\r']* ]]; then
      field="\"${field//\"/\"\"}\""
    fi
    fields+=("$field")
  done
  echo "${fields[*]}"
}

# Pastes the file $2 into the pages that show it (README.md, docs/*.md), whole, between
# `<!-- $1: FILE -->` and `<!-- end $1 -->` (FILE named from the project's root $root):
# what frontier.sh's tables, bench-example.sh's example and the tables of library-speed.sh and
# isa-builds.sh are made for.
paste_into_pages() {
  local kind=$1 made=$2 shown page
  shown=$(realpath -m --relative-to="$root" "$made")
  for page in "$root"/README.md "$root"/docs/*.md; do
    if ! [ -f "$page" ] || ! grep -qF "<!-- $kind: $shown -->" "$page"; then
      continue
    fi
    on_exit rm -f "$page.tmp"
    awk -v marker="<!-- $kind: $shown -->" -v end="<!-- end $kind -->" -v made="$made" '
      $0 == marker { print; while ((getline line < made) > 0) print line; skipping = 1; next }
      skipping && $0 == end { skipping = 0 }
      !skipping { print }' "$page" >"$page.tmp" && mv "$page.tmp" "$page"
    echo "pasted ${made#"$root"/} into ${page#"$root"/}" >&2
  done
}
