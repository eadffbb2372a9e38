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
case ${1:-} in
  -h | --help) echo "$usage"; exit 0 ;;
  [1-9] | [1-2][0-9] | 3[0-2]) n=$1 ;;
  *) echo "slurm-array.sh: expected a board size N from 1 to 32" >&2; echo "$usage" >&2; exit 2 ;;
esac
shard=${SLURM_ARRAY_TASK_ID:?run as a Slurm array job}
shards=${SLURM_ARRAY_TASK_COUNT:?run as a Slurm array job}
mkdir -p shards
part="shards/n$n-$shard.part"
# A failed or stopped count leaves no .part behind (the journal stays, for the resume); the
# result is renamed into place only when whole.
trap 'rm -f "$part"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
nqueens count "$n" -j "${SLURM_CPUS_PER_TASK:-$(nproc)}" --shard "$shard/$shards" \
  --checkpoint "shards/n$n-$shard.journal" --quiet >"$part"
mv "$part" "shards/n$n-$shard.json"
