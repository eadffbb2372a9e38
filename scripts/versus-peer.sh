#!/usr/bin/env bash
# Times nqueens against another counter written in C, the two run alternately (the order
# flipped each round) on the same sizes, and prints each one's median seconds and the ratio
# peer / nqueens with its range over the rounds: how the search's speed on one thread is
# compared with a published depth-first counter. The peer is built here, `cc -O3
# -march=native`, from the source file given; it must take the board size as its only
# argument and count that one size. Or the peer is a command already built (-c), as
# scripts/library-speed.sh gives a program that counts through the library.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/versus-peer.sh (-p PEER.c | -c COMMAND) [-n SIZES] [-R ROUNDS] [-a ARGS]
                              [-o FILE] [-h]

Builds nqueens and the C counter PEER.c (cc -O3 -march=native), or takes COMMAND, then runs
`PEER N` (or COMMAND) and `nqueens ARGS` (N put in place of the word N) alternately, ROUNDS
rounds, for each size.
Prints a Markdown table: each one's median wall-clock seconds, and the ratio peer / nqueens
(above 1: nqueens is faster), its median and range over the rounds.

  -p PEER.c   the peer's C source; it takes the board size as its only argument
  -c COMMAND  the peer as a command already built, quoted, with N for the size
  -n SIZES    board sizes, quoted (default "16 17")
  -R ROUNDS   rounds (default 5)
  -a ARGS     nqueens arguments, quoted, with N for the size
              (default "count N --engine search -j 1")
  -o FILE     also write the table to FILE
  -h, --help  this help

NQUEENS_RELEASE=DIR takes nqueens from DIR, already built, instead of building it.

  scripts/versus-peer.sh -p ~/peers/takaken31.c
  scripts/versus-peer.sh -p peer.c -n "12 13 14 15" -R 7
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "versus-peer.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

peer=
command=
sizes="16 17"
rounds=5
args="count N --engine search -j 1"
output=
while getopts ":p:c:n:R:a:o:h" opt; do
  case $opt in
    p) peer=$OPTARG ;;
    c) command=$OPTARG ;;
    n) sizes=$OPTARG ;;
    R) rounds=$OPTARG ;;
    a) args=$OPTARG ;;
    o) output=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"
if [ -n "$command" ]; then
  [ -z "$peer" ] || bad "-p and -c: one peer, a C source or a command"
  [[ " $command " == *" N "* ]] || bad "-c '$command': no word N for the size"
else
  [ -n "$peer" ] || bad "-p PEER.c or -c COMMAND is needed: the peer"
  if ! [ -f "$peer" ] || ! [ -r "$peer" ]; then
    bad "-p $peer: not a readable file"
  fi
fi
check_sizes "$sizes"
check_runs "$rounds"
[[ " $args " == *" N "* ]] || bad "-a '$args': no word N for the size"
[ -z "$output" ] || check_output -o "$output"
[ -n "$command" ] || command -v cc >/dev/null || bad "no C compiler (cc) to build the peer with"

root=$(cd "$(dirname "$0")/.." && pwd)
need_scratch
build_release --bin nqueens
nqueens=$release/nqueens
# The peer's words, N for the size: the command's, split at spaces (no glob), or the C
# peer's program alone (a path that may hold spaces) and N.
if [ -n "$command" ]; then
  read -r -a peer_command <<<"$command"
  peer_name=$command
else
  run cc -O3 -march=native -o "$scratch/peer" "$peer"
  peer_command=("$scratch/peer" N)
  peer_name="$(basename "$peer") (cc -O3 -march=native)"
fi
read -r -a nqueens_command <<<"$args"

# Runs the command given, its output thrown away, and sets `took` to its wall-clock seconds.
# A failure stops the script with the command's stderr.
time_run() {
  local start end status=0
  start=$(date +%s.%N)
  run "$@" >/dev/null 2>"$scratch/stderr" || status=$?
  end=$(date +%s.%N)
  if [ "$status" != 0 ]; then
    echo "versus-peer.sh: '$*' failed with exit code $status; its stderr:" >&2
    cat "$scratch/stderr" >&2
    exit 1
  fi
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
}

# Sets `sized` to the words after $1, each word N replaced by the size $1.
with_size() {
  local size=$1 word
  shift
  sized=()
  for word in "$@"; do
    [ "$word" = N ] && word=$size
    sized+=("$word")
  done
}

table="| n | peer s (median) | nqueens s (median) | peer / nqueens | range |
|---:|---:|---:|---:|---|"
for n in $sizes; do
  with_size "$n" "${nqueens_command[@]}"
  words=("${sized[@]}")
  with_size "$n" "${peer_command[@]}"
  peer_words=("${sized[@]}")
  # Once each before the timings: both run.
  time_run "${peer_words[@]}"
  time_run "$nqueens" "${words[@]}"
  peers=() ours=() ratios=()
  for round in $(seq "$rounds"); do
    if [ $((round % 2)) = 1 ]; then
      time_run "${peer_words[@]}"; p=$took
      time_run "$nqueens" "${words[@]}"; o=$took
    else
      time_run "$nqueens" "${words[@]}"; o=$took
      time_run "${peer_words[@]}"; p=$took
    fi
    peers+=("$p") ours+=("$o")
    ratios+=("$(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.3f", p / o }')")
    echo "versus-peer.sh: n = $n round $round: peer $p s, nqueens $o s" >&2
  done
  low=$(printf '%s\n' "${ratios[@]}" | sort -g | head -1)
  high=$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)
  table+="
| $n | $(median "${peers[@]}") | $(median "${ours[@]}") | $(median "${ratios[@]}")x | $low-$high |"
done
{
  echo "nqueens $args against $peer_name, $(plural "$rounds" round), alternately"
  echo "machine: $(cpu_model); build $(commit_of); $(date -u +%Y-%m-%d)"
  echo
  echo "$table"
} | tee "${output:-/dev/null}"
