#!/bin/sh
# The PNG board a report mail carries, for every game, mid-game (issue 30):
# docs/screenshots/<game>-mail.png. The same games and turns as
# benches/boards.rs. Run from the repository: sh docs/screenshots/mail-boards.sh
set -eu
herald=${HERALD:-target/debug/herald}
out=docs/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in norse-wars:6:red hexwar:6:black stack-wars:12:white \
    unfought-battle:3:south war-of-the-dukes:6:orfburg; do
    game=${spec%%:*}
    rest=${spec#*:}
    turns=${rest%%:*}
    player=${rest#*:}
    "$herald" demo "$game" --out "$tmp/$game" --seed boards \
        --max-turns "$turns" --now 2026-11-22T12:00:00Z >/dev/null
    "$herald" report "$tmp/$game/game" --player "$player" --format png \
        --out "$out/$game-mail.png"
    echo "$out/$game-mail.png"
done
