#!/usr/bin/env python3
"""The oracle for Syzygy adjudication: python-chess probes the test tables independently.

Makes random legal positions of the materials in crates/matches/tests/syzygy/ (both colours),
with halfmove clocks at 0, at random and around the 50-move boundary (clock + |DTZ| near 100),
asks python-chess (chess.syzygy) for WDL and DTZ, and works out the result under the 50-move
rule with the position's clock. Writes them to crates/matches/tests/data/syzygy_oracle.txt,
one a line: FEN;wdl;dtz;value50

  wdl      python-chess probe_wdl: -2 loss, -1 blessed loss, 0 draw, 1 cursed win, 2 win, for
           the side to move, as if the position had just been reached by a capture or pawn move
  dtz      python-chess probe_dtz (may be rounded by one ply, see python-chess's docs)
  value50  -1, 0, 1: loss, draw, win for the side to move under the 50-move rule with the
           FEN's halfmove clock: a win or loss stands when |dtz| + clock <= 100; where DTZ
           rounding leaves that open (|dtz| + clock = 100 and clock > 0) one more ply is searched

The Rust test (crates/matches/tests/syzygy.rs) checks the runner's adjudication against every
line, with and without --tbignore50. Needs `pip install chess`.

    python3 tools/syzygy_fixture.py [--count 600] [--seed 1]
"""
import argparse
import os
import random
import sys

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES = os.path.join(ROOT, "crates", "engine", "tests", "syzygy")
OUT = os.path.join(ROOT, "crates", "engine", "tests", "data", "syzygy_oracle.txt")

PIECES = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def materials():
    names = sorted({f.rsplit(".", 1)[0] for f in os.listdir(TABLES) if f.endswith(".rtbw")})
    out = []
    for name in names:
        white, black = name.split("v")
        out.append((white, black))
        if white != black:
            out.append((black, white))
    return out


def random_position(rng, white, black):
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
            for letter in letters:
                sq = squares.pop()
                piece = chess.KING if letter == "K" else PIECES[letter]
                if piece == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, chess.Piece(piece, color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if ok and board.is_valid() and not board.is_checkmate() and not board.is_stalemate():
            return board


def sign(x):
    return (x > 0) - (x < 0)


def value50(tb, board):
    """-1, 0, 1 for the side to move under the 50-move rule with the board's clock, or None
    where DTZ rounding leaves it open."""
    if board.is_checkmate():
        return -1
    if board.halfmove_clock >= 100 or board.is_stalemate() or board.is_insufficient_material():
        return 0
    wdl = tb.probe_wdl(board)
    if abs(wdl) != 2:
        return 0
    if board.halfmove_clock == 0:
        return sign(wdl)
    total = abs(tb.probe_dtz(board)) + board.halfmove_clock
    if total <= 99:
        return sign(wdl)
    if total > 100:
        return 0
    # |dtz| may be one ply short (rounded), which python-chess does not say: open.
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    mats = materials()
    lines = []
    kinds = {"h0": 0, "random": 0, "boundary": 0, "flipped_by_clock": 0, "cursed": 0}
    with chess.syzygy.open_tablebase(TABLES) as tb:
        for i in range(args.count):
            white, black = mats[i % len(mats)]
            board = random_position(rng, white, black)
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            r = rng.random()
            if r < 0.3:
                clock = 0
                kinds["h0"] += 1
            elif abs(wdl) == 2 and r < 0.75:
                clock = min(99, max(1, 100 - abs(dtz) + rng.choice([-2, -1, 0, 0, 1, 1, 2])))
                kinds["boundary"] += 1
            else:
                clock = rng.randrange(1, 100)
                kinds["random"] += 1
            board.halfmove_clock = clock
            board.fullmove_number = 60
            v = value50(tb, board)
            if v is None:
                kinds["open"] = kinds.get("open", 0) + 1
                v = "?"
            elif abs(wdl) == 2 and v == 0:
                kinds["flipped_by_clock"] += 1
            if abs(wdl) == 1:
                kinds["cursed"] += 1
            lines.append(f"{board.fen()};{wdl};{dtz};{v}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("# FEN;wdl;dtz;value50 (tools/syzygy_fixture.py, python-chess %s, seed %d)\n" % (chess.__version__, args.seed))
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions to {os.path.relpath(OUT, ROOT)}: {kinds}", file=sys.stderr)


if __name__ == "__main__":
    main()
