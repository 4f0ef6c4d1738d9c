#!/usr/bin/env bash
# Regenerate the figures of docs/playtest/ from today's rules: every
# `herald playtest GAME …` command written in the pages (in the order
# written), then every `herald playtest summarize …` command, its text
# into the .txt beside its result file (A-vs-B.txt when it reads two, or
# compares A --against B).
#
#   docs/playtest/regenerate.sh                 every page
#   docs/playtest/regenerate.sh hexwar.md       one page
#   SUMMARIES_ONLY=1 docs/playtest/regenerate.sh   re-print, play nothing
#   MATCH='--bots greedy,' docs/playtest/regenerate.sh  play only the commands
#                                               the pattern (grep -E) finds
#   HERALD=target/release/herald JOBS=8 docs/playtest/regenerate.sh
#
# Run it from the repository's root. The results do not depend on --jobs
# (JOBS replaces the pages' `--jobs 1`): more cores only go faster. The
# suite checks that every result file here was played with the built-in
# ruleset of today (tests/it/playtest.rs), so a change to a game's rules
# fails it until this script has been run and the pages' prose checked
# against the new figures.
set -euo pipefail
cd "$(dirname "$0")/../.."
herald=${HERALD:-herald}
jobs=${JOBS:-1}
pages=("$@")
if [ ${#pages[@]} -eq 0 ]; then
  pages=(docs/playtest/*.md)
else
  pages=("${pages[@]/#/docs/playtest/}")
fi
commands() {
  # The commands of the pages' sh blocks, one a line.
  awk '/^```sh$/{on=1; next} /^```/{on=0} on && /^herald playtest /' "$@"
}
if [ -z "${SUMMARIES_ONLY:-}" ]; then
  commands "${pages[@]}" | grep -v '^herald playtest summarize ' | grep -E -- "${MATCH:-.}" | while read -r line; do
    read -r -a args <<<"${line#herald }"
    for i in "${!args[@]}"; do
      if [ "${args[$i]}" = --jobs ]; then args[$((i + 1))]=$jobs; fi
    done
    echo "+ herald ${args[*]}" >&2
    start=$(date +%s)
    nice -n 19 "$herald" "${args[@]}"
    echo "  $(( $(date +%s) - start )) s" >&2
  done
fi
commands "${pages[@]}" | grep '^herald playtest summarize ' | while read -r line; do
  read -r -a args <<<"${line#herald }"
  # The result files: those before the first option, then those after
  # --against (another option's value is not one).
  files=()
  mode=files
  for a in "${args[@]:2}"; do
    case $a in
      --against) mode=files ;;
      --*) mode=other ;;
      *) if [ $mode = files ]; then files+=("$a"); fi ;;
    esac
  done
  out=${files[0]%.jsonl}
  for f in "${files[@]:1}"; do out="$out-vs-$(basename "${f%.jsonl}")"; done
  echo "+ herald ${args[*]} > $out.txt" >&2
  "$herald" "${args[@]}" >"$out.txt"
done
