"""A UCCI engine that cannot play. It answers `go draw` with a move and a draw offer,
`go depth 1` with a move and resignation, `go nodes 1` with `nobestmove`, otherwise with the
first move of its list not banned by `banmoves`. `--log FILE` records what it was told.

With `--offer` every move it makes offers a draw.

Usage: ucci.py [--log FILE] [--offer]
"""
import sys

args = sys.argv[1:]
log = None
if args[:1] == ["--log"]:
    log = open(args[1], "w")
    args = args[2:]
offer = "--offer" in args
candidates = ["h2e2", "b2e2", "h0g2", "b0c2"]
banned = []


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
    if words[0] == "ucci":
        say("id name Fake UCCI")
        say("option usemillisec type check default false")
        say("option newgame type button")
        say("option hashsize type spin min 0 max 1024 default 0")
        say("ucciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "position":
        banned = []
    elif words[0] == "banmoves":
        banned = words[1:]
    elif words[0] == "go":
        move = next(m for m in candidates if m not in banned)
        say("info depth 3 score 25 pv " + move)
        say("info nodes 1234 time 5")
        if "nodes" in words and words[words.index("nodes") + 1] == "1":
            say("nobestmove")
        elif "draw" in words:
            say("bestmove " + move + " draw")
        elif "depth" in words and words[words.index("depth") + 1] == "1":
            say("bestmove " + move + " resign")
        elif offer:
            say("bestmove " + move + " draw")
        else:
            say("bestmove " + move + " ponder h9g7")
    elif words[0] == "quit":
        say("bye")
        break
