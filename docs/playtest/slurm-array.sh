#!/usr/bin/env bash
# A tournament as a Slurm array job: task i of n plays shard i/n, the
# games whose number is i-1 modulo n, into its own result file; the
# pieces together are exactly the one-machine run's lines
# (docs/playtest/README.md, "Beyond one machine").
#
#   sbatch --array=1-8 docs/playtest/slurm-array.sh
#   herald playtest summarize results/part-*.jsonl     # when all are done
#
# The tournament is set by the environment (sbatch --export), defaults below.
#SBATCH --job-name=herald-playtest
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --time=02:00:00
#SBATCH --output=results/part-%a.log
set -euo pipefail
herald=${HERALD:-herald}
game=${GAME:-hexwar}
games=${GAMES:-400}
bots=${BOTS:-greedy,greedy}
seed=${SEED:-4}
out=${OUT:-results}
# Slurm numbers the tasks as --array says (1-8 here) and counts them.
i=${SLURM_ARRAY_TASK_ID:?run me with sbatch --array=1-N}
n=${SLURM_ARRAY_TASK_COUNT:?run me with sbatch --array=1-N}
mkdir -p "$out"
"$herald" playtest "$game" --games "$games" --bots "$bots" --seed "$seed" \
  --jobs "${SLURM_CPUS_PER_TASK:-1}" --shard "$i/$n" --out "$out/part-$i.jsonl"
