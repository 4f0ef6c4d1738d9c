#!/usr/bin/env bash
# One whole game run by mail, from `herald new` to the revealed seed.
# The README walks through it; tests/mail.rs runs it as it stands.
# Players' mails are written into a Maildir here; in real life the
# moderator's mail program delivers them, and sends the .eml files herald
# writes. --now stands in for the clock so the walkthrough replays; leave
# it out in a real game.
set -euo pipefail

# 1. The moderator starts a game of HEXWAR from a short end-game position,
#    with a deadline every 72 hours and the players' addresses.
cat > endgame.toml <<'EOF'
to_move = "white"
[pieces]
white = ["wyvern e5 N", "king b1 N", "orc c3 N"]
black = ["necromancer e8 S", "ghast h6 S"]
EOF
herald new hexwar --players red,blue --setup endgame.toml --out game.json \
  --deadline-every 72h --moderator gm@example.org \
  --email red=red@example.org --email blue=blue@example.org \
  --now 2026-12-01T18:00:00Z
# The passwords are in game.secrets.toml: send each player their own.
RED_PW=$(sed -n 's/^red = "\(.*\)"$/\1/p' game.secrets.toml)
GAME=$(sed -n 's/^  "id": "\(.*\)",$/\1/p' game.json)

# 2. Each player gets their first report as a mail, order form at the end.
herald report game.json --player red --format eml --now 2026-12-01T18:00:00Z > red.eml
herald report game.json --player blue --format eml --now 2026-12-01T18:00:00Z > blue.eml

# 3. Red (White) replies with an order file; it lands in the Maildir.
mkdir -p Maildir/new Maildir/cur Maildir/tmp
cat > Maildir/new/1764700000.red <<EOF
From: red@example.org
To: gm@example.org
Subject: Re: HEXWAR turn 0
Date: Tue, 02 Dec 2026 08:15:00 +0000
Message-ID: <turn0.red@example.org>

Advancing the orc.

game = "$GAME"
player = "red"
turn = 0
password = "$RED_PW"
orders = ["move c3 c4"]
EOF
herald inbox game.json Maildir --now 2026-12-02T09:00:00Z
herald status game.json --now 2026-12-02T09:00:00Z
herald resolve game.json --now 2026-12-02T09:00:00Z --eml

# 4. Blue sends nothing. At the deadline herald stands in with HEXWAR's
#    missed-order policy, hold: Black passes, and every report says so.
herald status game.json --now 2026-12-05T10:00:00Z
herald resolve game.json --now 2026-12-05T10:00:00Z --eml

# 5. Red's Wyvern takes the Necromancer: the game is over.
cat > Maildir/new/1765000000.red <<EOF
From: red@example.org
To: gm@example.org
Subject: Re: HEXWAR turn 2
Date: Fri, 05 Dec 2026 12:00:00 +0000
Message-ID: <turn2.red@example.org>

game = "$GAME"
player = "red"
turn = 2
password = "$RED_PW"
orders = ["move e5 e8"]
EOF
herald inbox game.json Maildir --now 2026-12-05T12:30:00Z
herald resolve game.json --now 2026-12-05T12:30:00Z --eml

# 6. Every final report reveals the seed; anyone holding the published game
#    file checks it against the commitment printed in every earlier report
#    and replays every turn.
SEED=$(sed -n 's/^The seed is revealed: //p' reports/turn-0003/blue.txt)
herald verify game.json --seed "$SEED"
herald export game.json --for blue
