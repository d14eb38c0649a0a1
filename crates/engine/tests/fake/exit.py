"""A UCI engine that dies when asked to think."""
import sys

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name Fake exit\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("info depth 1 score cp 3", flush=True)
        sys.stderr.write("fake engine: out of cheese\n")
        sys.stderr.flush()
        sys.exit(3)
