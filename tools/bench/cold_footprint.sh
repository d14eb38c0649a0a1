#!/usr/bin/env bash
# The code and data lines `arbiter match` touches a ply, cold: a figure the machine's load does
# not move, for telling small changes of the runner's per-ply work apart (BENCHMARKS.md,
# "Engine matches"). Timed runs on a shared VM drift by ±15 % between runs; this does not.
#
#   tools/bench/cold_footprint.sh [ARBITER]        # default target/release/arbiter
#
# How: a 10-game match (`go nodes 1000`, --affinity, concurrency 1) under callgrind's cache
# simulation (L1 32 kB code / 48 kB data, a 2 MB last level as a core's L2), with
# tools/bench/flush_shim.c preloaded: before each read of the engine's output it runs 64 kB of
# code and 32 MB of data through the simulated caches, as the engine's search does on the
# machine. Only `play_game`
# is counted, less the shim's own accesses. Misses of the last level a ply are the lines a
# ply brings in cold; each costs ~10-20 ns after a search.
# Sequential runs (a copy) cost the machine less a line than scattered ones; the simulation
# counts both alike. Data written by the kernel (the read's bytes) counts as a miss at its
# first touch, though on the machine the kernel's copy leaves it warm.
#
# Environment (all optional): WHAT (any of "chess xiangqi", default both), GAMES (default 10),
# TOP (list the N functions with most misses), STOCKFISH, FAIRY, CC.
# Needs valgrind, a C compiler and the engines.
set -eu
cd "$(dirname "$0")/../.."
BIN=${1:-target/release/arbiter}
WHAT=${WHAT:-"chess xiangqi"}
GAMES=${GAMES:-10}
TOP=${TOP:-0}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
command -v valgrind >/dev/null || { echo "cold_footprint.sh: valgrind is needed" >&2; exit 2; }
OUT=$(mktemp -d /tmp/cold_footprint.XXXXXX)
"${CC:-cc}" -O2 -shared -fPIC tools/bench/flush_shim.c -o "$OUT/flush_shim.so" -ldl
for game in $WHAT; do
    if [ "$game" = chess ]; then eng=$STOCKFISH; coords=(); else eng=$FAIRY; coords=(coords=fsf); fi
    [ -x "$eng" ] || { echo "# $game: skipped ($eng not found)" >&2; continue; }
    LD_PRELOAD="$OUT/flush_shim.so" valgrind --tool=callgrind --cache-sim=yes \
        --I1=32768,8,64 --D1=49152,12,64 --LL=2097152,16,64 \
        --toggle-collect='*play_game*' --callgrind-out-file="$OUT/$game.cg" \
        "$BIN" match --engine name=A cmd="$eng" proto=uci "${coords[@]}" \
        --engine name=B cmd="$eng" proto=uci "${coords[@]}" \
        --each nodes=1000 --game "$game" \
        --openings file="tools/bench/openings-$game.epd" format=epd order=sequential \
        --games "$GAMES" --concurrency 1 --affinity --yield-to-engines --pgnout "$OUT/$game.pgn" >"$OUT/$game.log" 2>&1
    plies=$(python3 tools/bench/pgn_plies.py "$OUT/$game.pgn" | cut -d' ' -f2)
    callgrind_annotate --inclusive=no --threshold=100 "$OUT/$game.cg" > "$OUT/$game.txt"
    python3 - "$OUT/$game.txt" "$plies" "$game" "$TOP" <<'PY'
import re, sys
path, plies, game, top = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
events, total, shim, rows = None, None, None, []
for line in open(path):
    if line.startswith("Events shown:"):
        events = line.split()[2:]
        continue
    # Columns: counts (with their shares in brackets, "." for none), then file:function.
    toks = re.sub(r"\([ \d.]+%\)", " ", line).split()
    n = len(events or [])
    if not events or len(toks) <= n or not all(re.fullmatch(r"[\d,]+|\.", t) for t in toks[:n]):
        continue
    counts = dict(zip(events, (0 if t == "." else int(t.replace(",", "")) for t in toks[:n])))
    name = " ".join(toks[n:])
    if "PROGRAM TOTALS" in name:
        total = counts
    elif "arbiter_bench_flush" in name:
        shim = counts
    else:
        rows.append((counts, name))
shim = shim or dict.fromkeys(events, 0)
per = {e: (total[e] - shim[e]) / plies for e in events}
code, data = per["ILmr"], per["DLmr"] + per["DLmw"]
print(f"{game}: {plies} plies; a ply: {per['Ir']:.0f} instructions, lines missed cold: "
      f"{code:.0f} code + {data:.0f} data = {code + data:.0f}")
rows.sort(key=lambda r: -(r[0]["ILmr"] + r[0]["DLmr"] + r[0]["DLmw"]))
for counts, name in rows[:top]:
    print(f"  {counts['ILmr'] / plies:6.1f} code {(counts['DLmr'] + counts['DLmw']) / plies:6.1f} data  {name[:100]}")
PY
done
echo "# profiles in $OUT"
