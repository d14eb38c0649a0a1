"""A UCI engine that prints garbage: invalid UTF-8, junk lines, malformed info, then an
unreadable best move. With `--no-uciok` it never finishes the handshake; with `--flood` it
writes far more to stderr than a pipe holds before answering; with `--huge` it answers `go`
with megabytes of output (a score, pages of info strings, a 3 MiB line, node counts) and then a
good move."""
import sys

out = sys.stdout.buffer
no_uciok = "--no-uciok" in sys.argv
flood = "--flood" in sys.argv
huge = "--huge" in sys.argv


def say(data):
    out.write(data + b"\n")
    out.flush()


for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        say(b"\xff\xfe garbage \xc3\x28")
        say(b"id")
        say(b"option name")
        say(b"x" * 100000)
        say(b"")
        if flood:
            sys.stderr.write(("noise " * 20 + "\n") * 20000)
            sys.stderr.flush()
        if not no_uciok:
            say(b"uciok")
    elif word == "isready":
        say(b"readyok")
    elif word == "go" and huge:
        say(b"info depth 3 score cp 50 nodes 10 pv h2e2")
        for i in range(50000):
            out.write(b"info string padding line %d\n" % i)
        out.write(b"info depth 4 " + b"x" * (3 << 20) + b"\n")
        say(b"info nodes 77")
        say(b"bestmove h2e2")
    elif word == "go":
        say(b"info depth x score cp nodes -")
        say(b"info score mate")
        say(b"bestmovex h2e2")
        say(b"bestmove zz99 ponder")
    elif word == "quit":
        break
