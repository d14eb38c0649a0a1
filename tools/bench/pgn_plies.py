#!/usr/bin/env python3
"""Counts games and plies in PGN files (chess or Xiangqi, any move notation).

    python3 tools/bench/pgn_plies.py FILE.pgn...   ->   "games plies"

Plies are the movetext tokens left after removing tag pairs, {comments}, ;comments,
(variations), $NAGs, move numbers and the result; the opening's own moves are not in the
movetext when the game starts from a FEN, so only the plies actually played are counted.
"""

import re
import sys

RESULT = {"1-0", "0-1", "1/2-1/2", "*"}


def count(text):
    games = plies = 0
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r";[^\n]*", " ", text)
    while True:
        t = re.sub(r"\([^()]*\)", " ", text)
        if t == text:
            break
        text = t
    for block in re.split(r"(?:^\[[^\n]*\]\s*\n)+", text, flags=re.M):
        block = block.strip()
        if not block:
            continue
        games += 1
        for tok in block.split():
            tok = re.sub(r"^\d+\.(\.\.)?", "", tok)
            if not tok or tok in RESULT or tok.startswith("$") or tok in (".", ".."):
                continue
            plies += 1
    return games, plies


def main():
    g = p = 0
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8", errors="replace") as f:
            a, b = count(f.read())
        g += a
        p += b
    print(g, p)


if __name__ == "__main__":
    main()
