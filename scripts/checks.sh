# What bench.sh, gpu-bench.sh and compare.sh check of their arguments alike, sourced by each.
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
