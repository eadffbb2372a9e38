#!/usr/bin/env bash
# A Slurm array job: each array task counts one shard of the board and writes its result;
# a dependent job merges them. Submit with
#
#   jobid=$(sbatch --parsable --array=0-15 scripts/slurm-array.sh 20)
#   sbatch --dependency=afterok:$jobid --wrap "nqueens merge shards/n20-*.json > n20.txt"
#
# Every shard keeps a checkpoint, so a requeued or preempted array task resumes.
#SBATCH --job-name=nqueens
#SBATCH --cpus-per-task=8
#SBATCH --requeue
set -euo pipefail
usage="usage: scripts/slurm-array.sh N   (as a Slurm array job: sbatch --array=0-15 scripts/slurm-array.sh N)"
# Self-contained, unlike the other scripts: sbatch runs a copy of it, away from common.sh.
case ${1:-} in
  -h | --help) echo "$usage"; exit 0 ;;
  -*) echo "slurm-array.sh: unknown option ${1%%=*} (see scripts/slurm-array.sh --help)" >&2; exit 2 ;;
  [1-9] | [1-2][0-9] | 3[0-2]) n=$1 ;;
  *) echo "slurm-array.sh: expected a board size N from 1 to 32" >&2; echo "$usage" >&2; exit 2 ;;
esac
shard=${SLURM_ARRAY_TASK_ID:?run as a Slurm array job}
shards=${SLURM_ARRAY_TASK_COUNT:?run as a Slurm array job}
mkdir -p shards
part="shards/n$n-$shard.part"
# A failed or stopped count leaves no .part behind (the journal stays, for the resume); the
# result is renamed into place only when whole. The count runs in the background, the script
# waiting for it, so that a signal to the script alone (bash acts on one only between
# commands) reaches the count at once, as SIGTERM (a background command ignores SIGINT): it
# keeps its journal and stops, and so does the script, with the code of the signal ($1).
count=
stop() {
  trap - EXIT
  if [ -n "$count" ]; then
    kill -TERM "$count" 2>/dev/null || true
    wait "$count" 2>/dev/null || true
  fi
  rm -f "$part"
  exit "$1"
}
trap 'rm -f "$part"' EXIT
trap 'stop 143' TERM
trap 'stop 130' INT
trap 'stop 129' HUP
nqueens count "$n" -j "${SLURM_CPUS_PER_TASK:-$(nproc)}" --shard "$shard/$shards" \
  --checkpoint "shards/n$n-$shard.journal" --quiet >"$part" &
count=$!
wait "$count"
count=
mv "$part" "shards/n$n-$shard.json"
