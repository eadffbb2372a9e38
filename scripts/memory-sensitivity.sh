#!/usr/bin/env bash
# How much the join engine slows when the memory it streams from is shared: one thread of the
# join counts a fixed sample of parts (`join_partition traffic`: each part's heaviest pair of
# pieces, timed by thread time) on the first core, alone and with a memory stream (STREAM's
# copy, examples/memory_stream.rs) running on the second, alternately, the order flipped each
# round. The ratio of its nanoseconds a test with the stream to alone is a small machine's
# signal of what a full node's cores, all streaming, would meet. Prints, for each size, the
# model's bytes a test from beyond the second-level cache and the ratios.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/memory-sensitivity.sh [-n "SIZES"] [-p PARTS] [-R ROUNDS] [-h]

Times one thread of the join on a sample of parts of each size, alone and beside a memory
stream on another core, alternately, and prints the slowdown.

  -n SIZES    board sizes, from 20 (default "22 26 28")
  -p PARTS    parts drawn at each size (default 6)
  -R ROUNDS   rounds, each timed alone and with the stream (default 3)
  -h, --help  this help

NQUEENS_RELEASE=DIR takes the examples join_partition and memory_stream from DIR/examples/,
already built, instead of building them. However the script ends (Ctrl-C included), the
memory stream ends with it.
EOF
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "memory-sensitivity.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

sizes="22 26 28"
parts=6
rounds=3
while getopts ":n:p:R:h" opt; do
  case $opt in
    n) sizes=$OPTARG ;;
    p) parts=$OPTARG ;;
    R) rounds=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"

check_sizes "$sizes"
for n in $sizes; do
  [ "$n" -ge 20 ] || bad "invalid board size '$n': the join's pieces are sampled from 20"
done
check_runs "$parts"
check_runs "$rounds"
[ "$(nproc)" -ge 2 ] || bad "needs two cores: one for the join, one for the stream"
command -v taskset >/dev/null || bad "needs taskset (util-linux) to keep each on its core"
root=$(cd "$(dirname "$0")/.." && pwd)
build_release --example join_partition --example memory_stream

# The summary line of the join's run on the sample of size $1, on the first core, in `line`
# (and on stderr). With $2 = stream, a memory stream runs on the second core meanwhile: a
# background job, stopped here, or by the exit trap (common.sh) if the script ends first.
summary() {
  local n=$1 stream=${2:-} pid=
  if [ "$stream" = stream ]; then
    taskset -c 1 "$release/examples/memory_stream" 100000 512 >/dev/null &
    pid=$!
    # Its buffers written before the join starts.
    run sleep 2
  fi
  capture line taskset -c 0 "$release/examples/join_partition" traffic "$n" "$parts" 7 2048 1
  line=$(tail -1 <<<"$line")
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || { echo "memory-sensitivity.sh: the memory stream ended before the join" >&2; exit 1; }
    wait "$pid" 2>/dev/null || true
  fi
  echo "$line" >&2
}

# A figure of a summary line ($1): the number before the words $2.
figure() { sed -E "s|.* ([0-9.]+) $2.*|\1|" <<<"$1"; }


echo "memory-sensitivity.sh: $(commit_of) · $(cpu_model), $(plural "$(nproc)" core) · $(date -u +%Y-%m-%d) · $(plural "$parts" part) a size, $(plural "$rounds" round), alternated"
echo
echo "| n | bytes a test beyond L2 (model) | ns a test alone | with a stream | ratio (median) | ratio (range) | GB/s a core | 64 cores | 192 cores |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  alone=() beside=() ratios=() rates=()
  for round in $(seq "$rounds"); do
    # (Not `summary ... && a=$line`: under `&&`, set -e would not stop the script in it.)
    if [ $((round % 2)) = 1 ]; then
      summary "$n"
      a=$line
      summary "$n" stream
      b=$line
    else
      summary "$n" stream
      b=$line
      summary "$n"
      a=$line
    fi
    bytes=$(figure "$a" "from beyond")
    rates+=("$(figure "$a" "GB/s a core")")
    a=$(figure "$a" "ns a test") b=$(figure "$b" "ns a test")
    alone+=("$a") beside+=("$b")
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')")
  done
  range=$(printf '%s\n' "${ratios[@]}" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.3f-%.3f", lo, hi }')
  rate=$(median "${rates[@]}")
  printf '| %s | %.2f | %.3f | %.3f | %.3f | %s | %.2f | %.0f | %.0f |\n' "$n" "$bytes" "$(median "${alone[@]}")" \
    "$(median "${beside[@]}")" "$(median "${ratios[@]}")" "$range" "$rate" \
    "$(awk -v r="$rate" 'BEGIN { print 64 * r }')" "$(awk -v r="$rate" 'BEGIN { print 192 * r }')"
done
echo
echo "GB/s a core: the model's bytes from beyond a 2 MB second-level cache over the time of the join alone; 64 and 192 cores: that times the cores, what a node's memory would be asked for."
