#!/usr/bin/env python3
"""Engine self-play with no referee at all: the floor a match runner is measured against.

Two processes of one UCI engine play each other from an openings file with `go nodes N`. Each
opening is played twice with colours swapped (as `fastchess -games 2`), games in file order.
Nothing is checked: a game ends only when the engine to move answers `bestmove (none)` (or
`0000`) or at the ply cap; no mate, stalemate, repetition, 50-move or perpetual-check rule is
applied, so games that a referee would end early as draws run to the cap here. Compare per ply,
not per game.

    python3 tools/bench/selfplay_noref.py --game xiangqi --openings tools/bench/openings-xiangqi.epd \
        --games 100 --concurrency 1 --pgnout /tmp/xq.pgn --json /tmp/xq.json

Each of --concurrency workers (threads) owns its own two engine processes and takes the next
unplayed game. Per engine ply the driver writes `position fen F moves ...` and `go nodes N` and
reads lines until `bestmove`; before each game both engines get `ucinewgame` + `isready`.

Reported (stdout and --json): games, plies, wall seconds, games per minute, the driver's own
CPU (user+sys of this process, all threads) and per ply, and the engines' CPU (read from
/proc/PID/stat just before they are told to quit). The PGN has a FEN tag and the moves in the
engine's own coordinates (not SAN), which tools/bench/pgn_plies.py counts.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")


class Engine:
    def __init__(self, cmd, variant):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
        )
        self.fd = self.p.stdout.fileno()
        self.buf = b""
        self.send(b"uci")
        self.until(b"uciok")
        if variant:
            self.send(b"setoption name UCI_Variant value " + variant.encode())

    def send(self, line):
        self.p.stdin.write(line + b"\n")

    def until(self, prefix):
        """The first line starting with prefix; earlier lines are skipped unparsed (read in
        blocks, searched with bytes.find: a Python line loop cost ~400 us a ply)."""
        buf = self.buf
        start = 0
        while True:
            i = buf.find(prefix, start)
            while i > 0 and buf[i - 1] not in b"\r\n":
                i = buf.find(prefix, i + 1)
            if i >= 0:
                j = buf.find(b"\n", i)
                if j >= 0:
                    self.buf = buf[j + 1 :]
                    return buf[i:j].rstrip(b"\r")
                start = i
            else:
                start = max(0, len(buf) - len(prefix))
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise RuntimeError("engine exited")
            buf += chunk

    def ready(self):
        self.send(b"isready")
        self.until(b"readyok")

    def cpu(self):
        try:
            with open(f"/proc/{self.p.pid}/stat") as f:
                s = f.read()
            rest = s[s.rindex(")") + 2 :].split()
            return (int(rest[11]) + int(rest[12])) / TICK
        except OSError:
            return 0.0

    def quit(self):
        c = self.cpu()
        try:
            self.send(b"quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()
            self.p.wait()
        return c


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=["chess", "xiangqi"], required=True)
    ap.add_argument("--engine", default=None, help="default: /usr/games/stockfish or fairy-stockfish")
    ap.add_argument("--openings", required=True, help="one FEN/EPD per line")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--pgnout", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    cmd = a.engine or ("/usr/games/stockfish" if a.game == "chess" else "/usr/games/fairy-stockfish")
    variant = "xiangqi" if a.game == "xiangqi" else None
    with open(a.openings) as f:
        openings = [l.strip() for l in f if l.strip() and not l.startswith("#")]

    t0 = time.monotonic()
    cpu0 = os.times()
    lock = threading.Lock()
    next_game = [0]
    results = [None] * a.games
    engine_cpu = [0.0]
    go = b"go nodes %d" % a.nodes

    def worker():
        engines = [Engine(cmd, variant), Engine(cmd, variant)]
        try:
            while True:
                with lock:
                    i = next_game[0]
                    if i >= a.games:
                        return
                    next_game[0] += 1
                fen = openings[(i // 2) % len(openings)]
                # game 2k: engine 0 moves first from the opening, game 2k+1: engine 1
                first = i % 2
                for e in engines:
                    e.send(b"ucinewgame")
                    e.ready()
                base = b"position fen " + fen.encode() + b" moves"
                moves = []
                end = "cap"
                while len(moves) < a.max_plies:
                    e = engines[(first + len(moves)) % 2]
                    e.send(base + b"".join(b" " + m for m in moves) if moves else b"position fen " + fen.encode())
                    e.send(go)
                    best = e.until(b"bestmove").split()
                    mv = best[1] if len(best) > 1 else b"(none)"
                    if mv in (b"(none)", b"0000"):
                        end = "no move"
                        break
                    moves.append(mv)
                results[i] = (fen, first, [m.decode() for m in moves], end)
        finally:
            c = sum(e.quit() for e in engines)
            with lock:
                engine_cpu[0] += c

    threads = [threading.Thread(target=worker) for _ in range(a.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    cpu1 = os.times()
    own = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
    done = [r for r in results if r]
    plies = sum(len(r[2]) for r in done)
    if a.pgnout:
        with open(a.pgnout, "w") as f:
            for n, (fen, first, moves, end) in enumerate(done, 1):
                f.write(f'[Event "selfplay_noref"]\n[Round "{n}"]\n[White "engine-{first}"]\n')
                f.write(f'[Black "engine-{1 - first}"]\n[Result "*"]\n[SetUp "1"]\n[FEN "{fen}"]\n')
                f.write(f'[PlyCount "{len(moves)}"]\n[Termination "{end}"]\n\n')
                f.write(" ".join(moves) + (" *\n\n" if moves else "*\n\n"))
    res = {
        "driver": "selfplay_noref.py",
        "game": a.game,
        "engine": cmd,
        "nodes": a.nodes,
        "concurrency": a.concurrency,
        "games": len(done),
        "plies": plies,
        "ended_no_move": sum(1 for r in done if r[3] == "no move"),
        "ended_cap": sum(1 for r in done if r[3] == "cap"),
        "wall_s": round(wall, 3),
        "games_per_min": round(len(done) / wall * 60, 2),
        "driver_cpu_s": round(own, 3),
        "driver_cpu_us_per_ply": round(own / plies * 1e6, 1) if plies else None,
        "engines_cpu_s": round(engine_cpu[0], 3),
        "wall_us_per_ply": round(wall / plies * 1e6, 1) if plies else None,
    }
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
