#!/usr/bin/env bash
# One whole game run by mail, from `herald new` to the revealed seed.
# The README walks through it; tests/it/mail.rs runs it as it stands.
# Players' mails are written into a Maildir here; in real life the
# moderator's mail program (or `herald host`) delivers them; `herald send`
# sends the mails herald queues in the game's outbox/. --now stands in for the clock
# so the walkthrough replays; leave it out in a real game.
set -euo pipefail

# 1. The moderator starts a game of HEXWAR from a short end-game position,
#    with a deadline every 72 hours and the players' addresses. A game is
#    one folder: here, game/.
cat > endgame.toml <<'EOF'
to_move = "white"
[pieces]
white = ["wyvern e5 N", "king b1 N", "orc c3 N"]
black = ["necromancer e8 S", "ghast h6 S"]
EOF
herald new hexwar --players red,blue --setup endgame.toml --out game \
  --deadline-every 72h --moderator gm@example.org \
  --email red=red@example.org --email blue=blue@example.org \
  --now 2026-12-01T18:00:00Z
# The passwords are in game/secrets.toml: send each player their own.
RED_PW=$(sed -n 's/^red = "\(.*\)"$/\1/p' game/secrets.toml)
GAME=$(herald status game | sed -n '1s/ .*//p')

# 2. Each player's first report waits in game/outbox/ as a mail, the order
#    form at the end, ready for the moderator's mail program to send.
ls game/outbox

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
herald inbox game Maildir --now 2026-12-02T09:00:00Z
herald status game --now 2026-12-02T09:00:00Z
herald resolve game --now 2026-12-02T09:00:00Z

# 4. Blue sends nothing. At the deadline herald stands in with HEXWAR's
#    missed-order policy, hold: Black passes, and every report says so.
herald status game --now 2026-12-05T10:00:00Z
herald resolve game --now 2026-12-05T10:00:00Z

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
herald inbox game Maildir --now 2026-12-05T12:30:00Z
herald resolve game --now 2026-12-05T12:30:00Z

# 6. Every final report reveals the seed; anyone holding the published game
#    file (game/game.jsonl) checks it against the commitment printed in
#    every earlier report, and replays every turn and every roll.
SEED=$(sed -n 's/^The seed is revealed: //p' game/reports/turn-0003/blue.txt)
herald verify game/game.jsonl --seed "$SEED"
herald export game --player blue --out blue-export
herald verify game/game.jsonl --witness blue-export/*

# 7. The mails herald queued in game/outbox/ (every report and every reply)
#    go out with `herald send`, each once: through the system's sendmail,
#    or the SMTP server a game/send.toml names (docs/host.md, "herald
#    send"). Here a stand-in sendmail keeps them in sent/, so nothing leaves
#    this machine. Run again, it has nothing to send; run after a failure,
#    it sends what is left and never a mail twice.
mkdir -p sent
cat > keep-mail <<'EOF'
#!/bin/sh
cat > "$(mktemp sent/mail.XXXXXX)"
EOF
chmod +x keep-mail
printf '[sendmail]\npath = "%s/keep-mail"\n' "$PWD" > game/send.toml
herald send game
herald send game
