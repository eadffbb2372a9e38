#!/usr/bin/env bash
# Makes the README's `nqueens bench` example: runs the release build's `nqueens bench` and
# writes what it printed (stdout and stderr, as a terminal shows them) under a line naming the
# machine and how long the run took, as a Markdown text block; then pastes it into the pages
# that show it, as frontier.sh does its tables. A test holds the example to the crate's
# version: a release runs this again.
set -euo pipefail

usage() {
  cat <<'EOF2'
usage: scripts/bench-example.sh [-l LABEL] [-o FILE] [-h]

Runs `nqueens bench` (the release build, built first) and writes FILE: a line naming the
machine (LABEL) and the run's seconds, then the command and all it printed in a text block.
Pastes FILE into README.md and docs/*.md where they mark it (<!-- bench: FILE -->).

  -l LABEL    the machine's name in the line (default: the processor)
  -o FILE     the file to write (default docs/bench/vm-2-cores.md)
  -h, --help  this help

  scripts/bench-example.sh -l "2-core VM"
EOF2
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "bench-example.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

root=$(cd "$(dirname "$0")/.." && pwd)
label=
output=$root/docs/bench/vm-2-cores.md
while getopts ":l:o:h" opt; do
  case $opt in
    l) label=$OPTARG ;;
    o) output=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"
check_output -o "$output"
[ -n "$label" ] || label=$(cpu_model)

need_scratch
build_release --bin nqueens
start=$(date +%s.%N)
status=0
run "$release/nqueens" bench >"$scratch/printed" 2>&1 || status=$?
end=$(date +%s.%N)
if [ "$status" != 0 ]; then
  echo "bench-example.sh: nqueens bench failed with exit code $status:" >&2
  cat "$scratch/printed" >&2
  exit 1
fi
{
  echo "<!-- made by scripts/bench-example.sh; run it again rather than edit -->"
  echo "**$label** · build $(commit_of) · $(date -u +%Y-%m-%d) · the run took $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s:"
  echo
  echo '```text'
  echo '$ nqueens bench'
  cat "$scratch/printed"
  echo '```'
} >"$scratch/example"
mv "$scratch/example" "$output"
paste_into_pages bench "$output"
cat "$output"
