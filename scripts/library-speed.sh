#!/usr/bin/env bash
# Times the library as a dependent gets it against the nqueens binary: tests/dependent, a crate
# that depends on nqueens as the README says and is built with cargo's default release profile
# (16 codegen units, no LTO), counts on one thread through the library; scripts/versus-peer.sh
# runs it and `nqueens count` alternately. A ratio near 1 is a library as fast as the tool.
set -euo pipefail

usage() {
  cat <<'EOF2'
usage: scripts/library-speed.sh [-R ROUNDS] [-o FILE] [-h]

Builds nqueens and tests/dependent (the library under a dependent's default release profile),
then times `count 18 --engine join -j 1` and `count 16 --engine search -j 1` through each,
alternately, ROUNDS rounds. Prints a table a size: each one's median seconds and the ratio
library / binary (the "peer / nqueens" column; below 1.2: the library is within 1.2 times
the binary's time), writes them to FILE and pastes FILE into the pages that mark it
(<!-- library: FILE -->).

  -R ROUNDS   rounds (default 5)
  -o FILE     where the tables go (default docs/library/vm-2-cores.md)
  -h, --help  this help

  scripts/library-speed.sh
  scripts/library-speed.sh -R 9 -o /tmp/library.md
EOF2
}

# Says what is wrong and how to call the script, on stderr; exits 2.
bad() {
  echo "library-speed.sh: $1" >&2
  usage >&2
  exit 2
}

# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"

root=$(cd "$(dirname "$0")/.." && pwd)
rounds=5
output=$root/docs/library/vm-2-cores.md
while getopts ":R:o:h" opt; do
  case $opt in
    R) rounds=$OPTARG ;;
    o) output=$OPTARG ;;
    h) usage; exit 0 ;;
    :) bad "-$OPTARG needs a value" ;;
    *) unknown_option "$OPTARG" "${!OPTIND:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || bad "unexpected argument '$1'"
check_runs "$rounds"
check_output -o "$output"
output=$(realpath -m "$output")

# The binary uncapped, as the library is (it reads no environment).
unset NQUEENS_ISA
need_scratch
# The dependent's own target folder, as a dependent has: nothing of the binary's build shared.
dependent_target=$root/target/dependent
# The versions the package's own build uses, so that nothing new is fetched (its lock file is
# the dependent's own from then on, and not kept in git).
[ -f "$root/tests/dependent/Cargo.lock" ] || cp "$root/Cargo.lock" "$root/tests/dependent/Cargo.lock"
# Cargo's default release profile, whatever this shell sets for the package's own builds.
CARGO_TARGET_DIR=$dependent_target run within "$root/tests/dependent" \
  env -u CARGO_PROFILE_RELEASE_LTO -u CARGO_PROFILE_RELEASE_CODEGEN_UNITS \
  cargo build --release --quiet
build_release --bin nqueens
# Named from the root (the tables name it so), where the timings run.
dependent=target/dependent/release/nqueens-dependent
cd "$root"
tables=$scratch/tables
echo "<!-- made by scripts/library-speed.sh; run it again rather than edit -->" >"$tables"
for pair in "join 18" "search 16"; do
  read -r engine n <<<"$pair"
  # A library that counted wrong would time nothing worth a table.
  capture counted "$dependent" "$engine" "$n"
  capture known "$release/nqueens" count "$n" --engine "$engine" -j 1
  if [ "${counted%% *}" != "$known" ]; then
    echo "library-speed.sh: the library counted ${counted%% *} for $engine $n, the binary $known" >&2
    exit 1
  fi
  NQUEENS_RELEASE=$release run "$root/scripts/versus-peer.sh" -c "$dependent $engine N" -n "$n" \
    -R "$rounds" -a "count N --engine $engine -j 1" -o "$scratch/table" >/dev/null
  { echo; cat "$scratch/table"; } >>"$tables"
done
cp "$tables" "$output"
paste_into_pages library "$output"
cat "$output"
echo "library-speed.sh: the peer is the library (tests/dependent); peer / nqueens is library / binary" >&2
