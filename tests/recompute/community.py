#!/usr/bin/env python3
"""Reliability and ratings of a herald host, recomputed from its game files.

Not herald's code: an independent reading of the rules docs/host.md states
("Reliability", "Ratings") and of the game file's published layout
(docs/trust.md, "The game file"), with Glicko-2 written from Glickman's
paper ("Example of the Glicko-2 system"). The test suite runs it on a host
folder played by real mail and compares its figures with what herald tells
the players (tests/it/community_mail.rs); the paper's worked example is
checked first, so a wrong Glicko-2 here cannot agree with herald by chance.

    python3 tests/recompute/community.py HOST_DIR

reads every HOST_DIR/GAME/game.jsonl (one JSON object a line: the head,
then each entry's signed `body`) and the `[[addresses]]` of the game's
secrets.toml (the moderator's file: the addresses are secrets, bound in
the game file by commitments this script opens itself), and prints JSON:

    {"reliability": {ADDRESS: {"seated", "ordered", "excused", "games",
                               "percent"}},
     "ratings": {POOL: {ADDRESS: {"rating", "deviation", "volatility",
                                  "games"}}}}

Python 3 standard library only.
"""

import datetime
import hashlib
import json
import math
import os
import sys
import tomllib

# The options of the five games and their defaults (games/*.md): an
# option at its default does not make a pool of its own.
DEFAULTS = {
    "stack-wars": {"size": "9", "move_onto_own": "false"},
    "hexwar": {"template": "E", "setup": "copper-pass"},
    "norse-wars": {"fog": "false", "draft_shields": "false",
                   "sudden_death": "false", "teams": "false"},
    "unfought-battle": {},
    "war-of-the-dukes": {},
}


def lines_sha256(*parts):
    """sha256 over each part followed by a newline (docs/trust.md)."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\n")
    return h.hexdigest()


def opens(commitment, salt, address):
    a = address.lower()
    return commitment in (lines_sha256("herald/address", salt, a),
                          lines_sha256("herald/seat", salt, a))


def holder(addresses, player, commitment, entry_salt=None):
    """The address (lowercase) of `player` whose commitment it is: the
    last one kept that opens it."""
    for a in reversed(addresses):
        if a["player"] != player:
            continue
        if opens(commitment, a["salt"], a["address"]) or (
                entry_salt and opens(commitment, entry_salt, a["address"])):
            return a["address"].lower()
    return None


def load(folder):
    with open(os.path.join(folder, "game.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    head = rows[0]["head"]
    bodies = [r["body"] for r in rows[1:]]
    try:
        with open(os.path.join(folder, "secrets.toml"), "rb") as f:
            addresses = tomllib.load(f).get("addresses", [])
    except FileNotFoundError:
        addresses = []
    return head, bodies, addresses


def seats_at_start(genesis, addresses):
    out = {}
    for p in genesis["players"]:
        if p.get("email"):
            out[p["id"]] = p["email"].lower()
        elif p.get("address_sha256"):
            out[p["id"]] = holder(addresses, p["id"], p["address_sha256"])
        else:
            out[p["id"]] = None
    return out


# --- Reliability (docs/host.md, "Reliability") -----------------------------

def reliability(games):
    tally = {}
    for head, bodies, addresses in games:
        seat = seats_at_start(bodies[0], addresses)
        seen = set()
        for b in bodies[1:]:
            kind = b.get("kind")
            if kind == "seat":
                seat[b["player"]] = holder(addresses, b["player"],
                                           b["holder_sha256"], b.get("salt"))
            elif kind == "phase":
                for o in b["orders"]:
                    a = seat.get(o["player"])
                    if a is None:
                        continue
                    t = tally.setdefault(a, {"seated": 0, "ordered": 0,
                                             "excused": 0, "games": 0})
                    stand_in = o.get("nmr") is not None
                    if stand_in and o["player"] in b.get("excused", []):
                        t["excused"] += 1
                    else:
                        t["seated"] += 1
                        if not stand_in:
                            t["ordered"] += 1
                    if a not in seen:
                        seen.add(a)
                        t["games"] += 1
    for t in tally.values():
        s = t["seated"]
        # Whole percent, half up, in integers.
        t["percent"] = (t["ordered"] * 200 + s) // (s * 2) if s else None
    return tally


# --- Glicko-2 (Glickman, "Example of the Glicko-2 system") -----------------

SCALE = 173.7178
TAU = 0.5
NEW = (1500.0, 350.0, 0.06)


def glicko2(player, results, tau=TAU):
    """One rating period: `player` = (r, RD, sigma), `results` = a list of
    ((r_j, RD_j, sigma_j), score)."""
    r, rd, sigma = player
    mu, phi = (r - 1500.0) / SCALE, rd / SCALE

    def g(ph):
        return 1.0 / math.sqrt(1.0 + 3.0 * ph * ph / math.pi ** 2)

    def expect(mu_j, phi_j):
        return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))

    opp = [((rj - 1500.0) / SCALE, rdj / SCALE, s)
           for (rj, rdj, _), s in results]
    v = 1.0 / sum(g(pj) ** 2 * expect(mj, pj) * (1 - expect(mj, pj))
                  for mj, pj, _ in opp)
    total = sum(g(pj) * (s - expect(mj, pj)) for mj, pj, s in opp)
    delta = v * total
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex)
                / (2 * (phi ** 2 + v + ex) ** 2)) - (x - a) / tau ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa = fa / 2
        big_b, fb = c, fc
    sigma2 = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * total
    return (SCALE * mu2 + 1500.0, SCALE * phi2, sigma2)


def papers_example():
    """Glickman's worked example: 1464.06, 151.52, 0.05999."""
    r, rd, s = glicko2((1500.0, 200.0, 0.06), [
        ((1400.0, 30.0, 0.06), 1.0),
        ((1550.0, 100.0, 0.06), 0.0),
        ((1700.0, 300.0, 0.06), 0.0),
    ], 0.5)
    assert abs(r - 1464.06) < 0.01 and abs(rd - 151.52) < 0.01 \
        and abs(s - 0.05999) < 0.00001, (r, rd, s)


# --- Ratings (docs/host.md, "Ratings") -------------------------------------

def pool(genesis):
    defaults = DEFAULTS.get(genesis["game"], {})
    name = genesis["game"]
    for k in sorted(genesis.get("options", {})):
        v = genesis["options"][k]
        if defaults.get(k) != v:
            name += " %s=%s" % (k, v)
    return name


def finish(head, bodies, addresses):
    """(pool, when it ended, [(address or None, place, team)]) of a
    finished game; None while it is not over."""
    if head.get("outcome") is None:
        return None
    genesis = bodies[0]
    ids = [p["id"] for p in genesis["players"]]
    seat = seats_at_start(genesis, addresses)
    left = {}  # player -> index of the entry they left in
    ended = genesis["created"]
    for i, b in enumerate(bodies[1:], start=1):
        kind = b.get("kind")
        if kind == "seat":
            seat[b["player"]] = holder(addresses, b["player"],
                                       b["holder_sha256"], b.get("salt"))
            left.pop(b["player"], None)  # the new holder plays on
        elif kind == "resign":
            left.setdefault(b["player"], i)
            ended = b["at"]
        elif kind == "draw":
            ended = b["at"]
        elif kind == "phase":
            for d in b.get("dropped", []):
                left.setdefault(d, i)
            for ev in b.get("events", []):
                if ev.get("kind") == "eliminated":
                    left.setdefault(ids[ev["seat"]], i)
            ended = b["resolved_at"]
    winners = head["outcome"]["winners"]
    drawn = not winners
    teams = genesis.get("options", {}).get("teams") == "true"

    def key(p):
        if p in winners:
            return (0, 0)
        if p not in left:
            return (0 if drawn else 1, 0)
        return (2, -left[p])

    keys = sorted(set(key(p) for p in ids))
    bots = genesis.get("bots") or {}
    seats = []
    for s, p in enumerate(ids):
        address = None if p in bots else seat.get(p)
        seats.append((address, keys.index(key(p)), s % 2 if teams else None))
    when = datetime.datetime.fromisoformat(ended.replace("Z", "+00:00"))
    return pool(genesis), when, genesis["id"], seats


def ratings(games):
    finished = [f for f in (finish(*g) for g in games) if f]
    finished.sort(key=lambda f: (f[1].timestamp(), f[2]))
    pools = {}
    for name, _, _, seats in finished:
        p = pools.setdefault(name, {})
        now = {a: p[a]["r"] if a in p else NEW for a, _, _ in seats if a}
        period = {}
        for i, (a, pa, ta) in enumerate(seats):
            for b, pb, tb in seats[i + 1:]:
                if not a or not b or a == b or (ta is not None and ta == tb):
                    continue
                s = 1.0 if pa < pb else 0.5 if pa == pb else 0.0
                period.setdefault(a, []).append((now[b], s))
                period.setdefault(b, []).append((now[a], 1.0 - s))
        for a, results in period.items():
            new = glicko2(now[a], results)
            games_before = p[a]["games"] if a in p else 0
            p[a] = {"r": new, "games": games_before + 1}
    return {
        name: {a: {"rating": v["r"][0], "deviation": v["r"][1],
                   "volatility": v["r"][2], "games": v["games"]}
               for a, v in p.items()}
        for name, p in pools.items() if p
    }


def main():
    if len(sys.argv) != 2:
        print("usage: community.py HOST_DIR", file=sys.stderr)
        return 2
    papers_example()
    root = sys.argv[1]
    games = []
    for name in sorted(os.listdir(root)):
        folder = os.path.join(root, name)
        if os.path.isfile(os.path.join(folder, "game.jsonl")):
            games.append(load(folder))
    json.dump({"games": len(games), "reliability": reliability(games),
               "ratings": ratings(games)}, sys.stdout, indent=1,
              sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
