"""A UCI engine that never answers `go`, nor `stop`, nor `quit`: only a kill ends it."""
import sys
import time

for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "uci":
        print("id name Fake hang\nuciok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        while True:
            time.sleep(1)
