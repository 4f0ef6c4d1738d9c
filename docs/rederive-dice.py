#!/usr/bin/env python3
"""Re-derive every roll of a herald game file (format 2, "dice": 2 phases)
from the seed, without herald and without a crypto library: the worked
example of docs/trust.md, "Dice".

    python3 docs/rederive-dice.py SEED game.jsonl

prints one line per roll: turn, recorded value, re-derived value, what it
decided. The two values agree on every line of a genuine game.
"""
import hashlib, json, sys

def sha256_lines(parts):      # each part followed by "\n"
    return hashlib.sha256(b"".join(p.encode() + b"\n" for p in parts)).hexdigest()

def chacha20_words(key):      # rand_chacha ChaCha20Rng: 20 rounds, 64-bit counter from 0, stream 0
    M = 0xFFFFFFFF
    k = [int.from_bytes(key[i:i + 4], "little") for i in range(0, 32, 4)]
    def qr(s, a, b, c, d):
        for x, y, z, r in ((a, b, d, 16), (c, d, b, 12), (a, b, d, 8), (c, d, b, 7)):
            s[x] = (s[x] + s[y]) & M; s[z] ^= s[x]; s[z] = ((s[z] << r) | (s[z] >> (32 - r))) & M
    n = 0
    while True:
        init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + k + [n & M, n >> 32, 0, 0]
        s = init[:]
        for _ in range(10):
            for q in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                      (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
                qr(s, *q)
        yield from ((a + b) & M for a, b in zip(s, init))
        n += 1

def die(words, sides):        # rng::die: below(sides) + 1, by rejection
    zone = 0xFFFFFFFF - 0xFFFFFFFF % sides
    while (x := next(words)) >= zone:
        pass
    return x % sides + 1

seed, path = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().split("\n")
game_id = json.loads(lines[0][len('{"head":'):-139])["id"]
for line in lines[1:]:
    body = json.loads(line)["body"] if line else {}
    if body.get("kind") != "phase" or body["dice"] != 2:
        continue
    read = [f"{o['player']} {r}" for o in body["orders"] for r in sorted(o.get("read", []))]
    key = sha256_lines(["herald/2 dice", seed, game_id, str(body["turn"]), body["phase"],
                        sha256_lines(read)])
    words = chacha20_words(bytes.fromhex(key))
    for roll in body["rolls"]:
        print(body["turn"], roll["value"], die(words, roll["sides"]), roll["what"])
