"""A UCI engine that cannot play: it answers with the first move of `searchmoves` when told
one, else with the next move of a fixed list (one per ply), so tests know every answer.

Usage: uci.py [--log FILE] [--cpus DIR] [--think [LATE_MS]] [MOVE ...]
(the list; by default a short Xiangqi opening)

With `--cpus DIR` it writes the CPUs it may run on into DIR/PID.cpus (one number a line) and
its scheduling policy (os.SCHED_*) into DIR/PID.policy. With `--think` it uses the whole of a
`go movetime N` before answering, as an engine does, and LATE_MS more (default 0).
"""
import os
import sys
import time

args = sys.argv[1:]
log = None
if args[:1] == ["--log"]:
    log = open(args[1], "w")
    args = args[2:]
if args[:1] == ["--cpus"]:
    with open(os.path.join(args[1], "%d.cpus" % os.getpid()), "w") as f:
        f.write("".join("%d\n" % c for c in sorted(os.sched_getaffinity(0))))
    with open(os.path.join(args[1], "%d.policy" % os.getpid()), "w") as f:
        f.write("%d\n" % os.sched_getscheduler(0))
    args = args[2:]
think = None
if args[:1] == ["--think"]:
    think = 0
    args = args[1:]
    if args[:1] and args[0].isdigit():
        think = int(args[0])
        args = args[1:]
script = args or ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
plies = 0


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    line = line.strip()
    if log:
        log.write(line + "\n")
        log.flush()
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("id name Fake UCI")
        say("id author arbiter tests")
        say("option name Hash type spin default 16 min 1 max 1024")
        say("option name Skill Level type spin default 20 min 0 max 20")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        plies = len(words) - words.index("moves") - 1 if "moves" in words else 0
    elif words[0] == "go":
        if "searchmoves" in words:
            move = words[words.index("searchmoves") + 1]
        else:
            move = script[plies % len(script)]
        if think is not None and "movetime" in words:
            time.sleep((int(words[words.index("movetime") + 1]) + think) / 1000)
        say("info depth 1 score cp 5 nodes 10 pv " + move)
        say("info string thinking hard")
        say("info depth 2 multipv 1 score cp 12 nodes 42 nps 1000 pv " + move)
        say("info depth 2 multipv 2 score cp -300 nodes 43 pv a0a1")
        say("bestmove " + move + " ponder " + script[(plies + 1) % len(script)])
    elif words[0] == "quit":
        break
