#!/usr/bin/env python3
"""Generates the opening files used by match_bench.sh (tools/bench/README.md).

Each opening is 4 to 8 uniformly random legal plies from the start position, kept only if the
engine's own evaluation after `go nodes N` is small (|cp| <= --max-cp, no mate) and the position
is new. Legal moves come from the engine itself (`go perft 1`), the FEN from `d`, so nothing
but the engine is needed:

    python3 tools/bench/make_openings.py chess   > tools/bench/openings-chess.epd
    python3 tools/bench/make_openings.py xiangqi > tools/bench/openings-xiangqi.epd

chess: /usr/games/stockfish, lines are 4-field EPD (placement, side, castling, en passant).
xiangqi: /usr/games/fairy-stockfish with UCI_Variant xiangqi, lines are full FEN as Fairy-
Stockfish prints it (`w`/`b` for red/black, 6 fields).
"""

import argparse
import random
import re
import subprocess
import sys


class Uci:
    def __init__(self, cmd, variant=None):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until(lambda l: l == "uciok")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            lines.append(line)
            if stop(line):
                return lines

    def legal(self, moves):
        self.position(moves)
        self.send("go perft 1")
        out = self.until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in out if re.match(r"^[a-i]\d+[a-i]\d+[qrbn]?: 1$", l)]

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def fen(self, moves):
        self.position(moves)
        self.send("d")
        out = self.until(lambda l: l.startswith("Fen:"))
        return out[-1][len("Fen:"):].strip()

    def eval(self, moves, nodes):
        self.send("ucinewgame")
        self.position(moves)
        self.send(f"go nodes {nodes}")
        out = self.until(lambda l: l.startswith("bestmove"))
        score = None
        for l in out:
            m = re.search(r" score (cp|mate) (-?\d+)", l)
            if m:
                score = (m.group(1), int(m.group(2)))
        return score

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("game", choices=["chess", "xiangqi"])
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--max-cp", type=int, default=None)
    ap.add_argument("--engine", default=None)
    a = ap.parse_args()
    if a.game == "chess":
        eng = Uci(a.engine or "/usr/games/stockfish")
        max_cp = 50 if a.max_cp is None else a.max_cp
    else:
        eng = Uci(a.engine or "/usr/games/fairy-stockfish", "xiangqi")
        max_cp = 80 if a.max_cp is None else a.max_cp
    rng = random.Random(a.seed)
    seen = set()
    tried = 0
    while len(seen) < a.count:
        tried += 1
        plies = rng.randint(4, 8)
        moves = []
        for _ in range(plies):
            legal = eng.legal(moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if len(moves) < plies or not eng.legal(moves):
            continue
        score = eng.eval(moves, a.nodes)
        if score is None or score[0] != "cp" or abs(score[1]) > max_cp:
            continue
        fen = eng.fen(moves)
        if a.game == "chess":
            fen = " ".join(fen.split()[:4])
        if fen in seen:
            continue
        seen.add(fen)
        print(fen, flush=True)
        print(f"{len(seen):3} {score[1]:+4} cp  {' '.join(moves)}", file=sys.stderr)
    print(f"kept {len(seen)} of {tried} tried", file=sys.stderr)
    eng.quit()


if __name__ == "__main__":
    main()
