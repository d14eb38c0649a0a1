#!/usr/bin/env python3
"""Perft speed side by side: arbiter, Pikafish and Fairy-Stockfish on the same positions and depths.

All three count the last ply in bulk. Engines are timed from `go perft N` to their
`Nodes searched` line (start-up excluded); arbiter in-process by `arbiter bench`. Each figure is
the best of --runs runs, and the ratios are what to compare: machines are noisy.

    python3 tools/bench_perft.py [--arbiter target/release/arbiter] [--pikafish PATH]
                                 [--fsf /usr/games/fairy-stockfish] [--depth 5] [--runs 3]

Pikafish: build it from its public repository in a scratch folder (perft needs no network
file); without --pikafish (or $PIKAFISH) its column is skipped.
"""
import argparse
import os
import subprocess
import sys
import time

POSITIONS = [
    ("startpos", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("middlegame", "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"),
]


def engine_perft(path, fen, depth, runs, variant=None):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait_for(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"{path} exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    if variant:
        send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    wait_for("readyok")
    best, nodes = float("inf"), None
    for _ in range(runs):
        send(f"position fen {fen}")
        send("isready")
        wait_for("readyok")
        t = time.perf_counter()
        send(f"go perft {depth}")
        line = wait_for("Nodes searched")
        best = min(best, time.perf_counter() - t)
        nodes = int(line.split(":")[1])
    send("quit")
    p.wait()
    return nodes, best


def arbiter_perft(path, depth, runs):
    out = subprocess.run([path, "bench", "--depth", str(depth), "--runs", str(runs)],
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines()[1:]:
        name, _d, nodes, secs, _mnps = line.split("\t")
        rows[name] = (int(nodes), float(secs))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arbiter", default="target/release/arbiter")
    ap.add_argument("--pikafish", default=os.environ.get("PIKAFISH"))
    ap.add_argument("--fsf", default=os.environ.get("FSF", "/usr/games/fairy-stockfish"))
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()

    ours = arbiter_perft(a.arbiter, a.depth, a.runs)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print("| position | depth | nodes | arbiter M nps | Pikafish M nps | Fairy-Stockfish M nps | arbiter / Pikafish | arbiter / FSF |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, fen in POSITIONS:
        nodes, secs = ours[name]
        a_nps = nodes / secs / 1e6
        cols = []
        for path, variant in ((a.pikafish, None), (a.fsf, "xiangqi")):
            if path and os.path.exists(path):
                n, s = engine_perft(path, fen, a.depth, a.runs, variant)
                if n != nodes:
                    sys.exit(f"node count mismatch on {name}: arbiter {nodes}, {path} {n}")
                cols.append(n / s / 1e6)
            else:
                cols.append(None)
        fmt = lambda v: "—" if v is None else f"{v:.1f}"
        ratio = lambda v: "—" if v is None else f"{a_nps / v:.2f}×"
        print(f"| {name} | {a.depth} | {nodes:,} | {a_nps:.1f} | {fmt(cols[0])} | {fmt(cols[1])} | {ratio(cols[0])} | {ratio(cols[1])} |")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
