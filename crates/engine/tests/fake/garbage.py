"""A UCI engine that prints garbage: invalid UTF-8, junk lines, malformed info, then an
unreadable best move. With `--no-uciok` it never finishes the handshake; with `--flood` it
writes far more to stderr than a pipe holds before answering."""
import sys

out = sys.stdout.buffer
no_uciok = "--no-uciok" in sys.argv
flood = "--flood" in sys.argv


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
    elif word == "go":
        say(b"info depth x score cp nodes -")
        say(b"info score mate")
        say(b"bestmovex h2e2")
        say(b"bestmove zz99 ponder")
    elif word == "quit":
        break
