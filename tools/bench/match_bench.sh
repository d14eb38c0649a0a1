#!/usr/bin/env bash
# Engine-match runners side by side (issue 8): fastchess, `arbiter match`, a no-referee
# self-play driver, and the machine's floor (a native loop that only passes the engine's moves
# back, crates/matches/examples/pipe_floor.rs), on the same engines (`go nodes 1000`), the same
# openings, at each concurrency. Prints one table row per run; see tools/bench/README.md.
#
#   FASTCHESS=/path/to/fastchess tools/bench/match_bench.sh
#
# Environment (all optional):
#   FASTCHESS    fastchess binary; its rows are skipped when unset or not executable
#   ARBITER      arbiter binary (default: target/release/arbiter); skipped if `match` fails
#   GAMES        games per run (default 100: 50 openings x 2 colours)
#   CONC         concurrencies (default "1 2"; CONC= with INSTR=1 counts instructions only)
#   RUNS         repetitions of each run (default 1)
#   NODES        nodes per move (default 1000)
#   WHAT         any of "chess xiangqi" (default both; fastchess plays chess only)
#   RUNNERS      any of "fastchess arbiter noref floor" (default all four)
#   FLOOR        the floor's binary (default target/release/examples/pipe_floor; build it with
#                `cargo build --release -p arbiter-matches --example pipe_floor`); its row plays
#                from the start position as many plies as arbiter's run did (games column 0),
#                one process a slot, and counts only its own thread's CPU
#   MAXPLIES     ply cap of the no-referee driver (default 200)
#   STOCKFISH, FAIRY   engine binaries (default /usr/games/stockfish, /usr/games/fairy-stockfish)
#   OUT          directory for PGNs, logs and per-run JSON (default: a new /tmp/match_bench.*)
#   AFFINITY=1   pin each game slot to a CPU: `arbiter match --affinity --yield-to-engines`, fastchess
#                `-use-affinity` (the no-referee driver is not pinned)
#   INSTR=1      also count the runners' own instructions per ply under valgrind (callgrind,
#                engines not traced, concurrency 1, INSTR_GAMES games, default 20): a figure the
#                machine's load does not move. FASTCHESS_VG: a fastchess built without
#                -march=native for this (valgrind stops a native build with SIGILL); default
#                $FASTCHESS. Start-up is included (fastchess ~20 M instructions, ~8 k a ply
#                at 20 games).
#
# Columns: runner, game, concurrency, run, games and plies (counted in the runner's PGN),
# wall seconds, games per minute, the runner's own CPU (user+sys of the runner process and its
# threads, never the engines'), the engines' CPU, plies per game, runner CPU microseconds per
# ply, wall milliseconds per ply (fairer than games/min when runners end games at different
# plies: arbiter claims draws FIDE 9.2/9.3-style, fastchess waits for the repetition), and the
# machine's 1-minute load average when the run started (other work on the machine shows up
# there and in the wall times). CPU is split by tools/bench/cputree.py
# (polls /proc/PID/stat; /usr/bin/time would fold reaped engines into the runner's time).
# With RUNS > 1 the medians follow, and, where arbiter and the floor ran alike, arbiter over
# the floor run by run: the CPU a ply the runner adds to the bare exchange with the engine
# (BENCHMARKS.md, issue 8), and both as a share of the time a ply takes in its game slot.
# There arbiter's CPU is its own "runner CPU" line (nanosecond process clock), not the
# us/ply column (cputree's 10 ms ticks, start-up included).
# The noref driver measures itself (Python; its CPU excludes interpreter start-up) and ends
# games only on `bestmove (none)` or the ply cap, so compare it per ply, not per game.
set -u
cd "$(dirname "$0")/../.."
HERE=tools/bench
GAMES=${GAMES:-100}
CONC=${CONC-"1 2"}
RUNS=${RUNS:-1}
NODES=${NODES:-1000}
WHAT=${WHAT:-"chess xiangqi"}
RUNNERS=${RUNNERS:-"fastchess arbiter noref floor"}
FLOOR=${FLOOR:-target/release/examples/pipe_floor}
MAXPLIES=${MAXPLIES:-200}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
ARBITER=${ARBITER:-target/release/arbiter}
OUT=${OUT:-$(mktemp -d /tmp/match_bench.XXXXXX)}
mkdir -p "$OUT"
ROUNDS=$(( (GAMES + 1) / 2 ))
FC_AFF=(); AR_AFF=()
if [ "${AFFINITY:-0}" = 1 ]; then FC_AFF=(-use-affinity); AR_AFF=(--affinity --yield-to-engines); fi

want() { case " $RUNNERS " in *" $1 "*) return 0 ;; esac; return 1; }

ROWS="$OUT/rows.tsv"
: > "$ROWS"
: > "$OUT/own.tsv"
row() { # runner game conc run games plies wall runner_cpu engines_cpu load
    awk -v r="$1" -v g="$2" -v c="$3" -v n="$4" -v games="$5" -v plies="$6" -v wall="$7" \
        -v rc="$8" -v ec="$9" -v ld="${10}" 'BEGIN {
        gpm = wall > 0 ? games / wall * 60 : 0
        ppg = games > 0 ? plies / games : 0
        us = plies > 0 ? rc / plies * 1e6 : 0
        ms = plies > 0 ? wall / plies * 1e3 : 0
        printf "%-10s %-8s %4s %3s %6d %8.1f %8.1f %9.3f %9.1f %7d %7.1f %9.1f %7.3f %5s\n",
            r, g, c, n, games, wall, gpm, rc, ec, plies, ppg, us, ms, ld }' | tee -a "$ROWS"
}
load1() { cut -d' ' -f1 /proc/loadavg; }
jget() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

printf '%-10s %-8s %4s %3s %6s %8s %8s %9s %9s %7s %7s %9s %7s %5s\n' runner game conc run games \
    wall_s games/min runner_cpu engine_cpu plies ply/game us/ply wall_ms/ply load1

have_fastchess=0
if want fastchess; then
    if [ -n "${FASTCHESS:-}" ] && [ -x "$FASTCHESS" ]; then
        have_fastchess=1
        echo "# fastchess: $("$FASTCHESS" --version 2>&1 | head -1)" >&2
    else
        echo "# fastchess: skipped (set FASTCHESS=/path/to/fastchess)" >&2
    fi
fi
have_arbiter=0
if want arbiter; then
    if [ -x "$ARBITER" ] && "$ARBITER" match --help > "$OUT/arbiter-match-help.txt" 2>&1; then
        have_arbiter=1
    else
        echo "# arbiter match: skipped ($ARBITER match --help failed; see $OUT/arbiter-match-help.txt)" >&2
    fi
fi

for game in $WHAT; do
    book=$HERE/openings-$game.epd
    if [ "$game" = chess ]; then eng=$STOCKFISH; coords=""; else eng=$FAIRY; coords="coords=fsf"; fi
    for c in $CONC; do
        for run in $(seq 1 "$RUNS"); do
            tag="$game-c$c-r$run"
            rm -f "$OUT"/*-"$tag".pgn  # fastchess appends to an existing PGN
            if [ "$have_fastchess" = 1 ] && [ "$game" = chess ]; then
                l=$(load1)
                python3 $HERE/cputree.py "$OUT/fastchess-$tag.json" -- "$FASTCHESS" \
                    -engine cmd="$eng" name=A -engine cmd="$eng" name=B \
                    -each tc=inf nodes="$NODES" proto=uci \
                    -openings file="$book" format=epd order=sequential \
                    -games 2 -rounds "$ROUNDS" -concurrency "$c" \
                    -pgnout file="$OUT/fastchess-$tag.pgn" -config outname="$OUT/fastchess-$tag.config.json" \
                    "${FC_AFF[@]}" > "$OUT/fastchess-$tag.log" 2>&1
                st=$?
                if [ $st -ne 0 ] || [ ! -s "$OUT/fastchess-$tag.pgn" ]; then
                    echo "# fastchess $tag failed (exit $st), see $OUT/fastchess-$tag.log" >&2
                else
                    read -r g p < <(python3 $HERE/pgn_plies.py "$OUT/fastchess-$tag.pgn")
                    j="$OUT/fastchess-$tag.json"
                    row fastchess "$game" "$c" "$run" "$g" "$p" "$(jget "$j" wall_s)" \
                        "$(jget "$j" runner_cpu_s)" "$(jget "$j" descendants_cpu_s)" "$l"
                fi
            fi
            if [ "$have_arbiter" = 1 ]; then
                l=$(load1)
                python3 $HERE/cputree.py "$OUT/arbiter-$tag.json" -- "$ARBITER" match \
                    --engine name=A cmd="$eng" proto=uci $coords \
                    --engine name=B cmd="$eng" proto=uci $coords \
                    --each nodes="$NODES" --game "$game" \
                    --openings file="$book" format=epd order=sequential \
                    --games "$GAMES" --concurrency "$c" \
                    --pgnout "$OUT/arbiter-$tag.pgn" "${AR_AFF[@]}" > "$OUT/arbiter-$tag.log" 2>&1
                st=$?
                if [ $st -ne 0 ] || [ ! -s "$OUT/arbiter-$tag.pgn" ]; then
                    echo "# arbiter match $tag failed (exit $st), skipped; see $OUT/arbiter-$tag.log:" >&2
                    tail -3 "$OUT/arbiter-$tag.log" | sed 's/^/#   /' >&2
                else
                    read -r g p < <(python3 $HERE/pgn_plies.py "$OUT/arbiter-$tag.pgn")
                    j="$OUT/arbiter-$tag.json"
                    row arbiter "$game" "$c" "$run" "$g" "$p" "$(jget "$j" wall_s)" \
                        "$(jget "$j" runner_cpu_s)" "$(jget "$j" descendants_cpu_s)" "$l"
                    # arbiter's own figure (its process CPU clock over the match, in ns):
                    # what "over the floor" is taken from, not cputree's 10 ms ticks.
                    own=$(sed -nE 's/.*runner CPU: ([0-9.]+) .*/\1/p' "$OUT/arbiter-$tag.log" | tail -1)
                    [ -n "$own" ] && printf '%s %s %s %s\n' "$game" "$c" "$run" "$own" >> "$OUT/own.tsv"
                fi
            fi
            if want floor && [ -x "$FLOOR" ]; then
                l=$(load1)
                p=2000
                [ -s "$OUT/arbiter-$tag.pgn" ] && read -r _ p < <(python3 $HERE/pgn_plies.py "$OUT/arbiter-$tag.pgn")
                xq=(); [ "$game" = xiangqi ] && xq=(--xiangqi)
                # Pinned, the floor waits as arbiter's slots do: an idle task once its engine
                # runs, reading before it polls.
                pin=(--idle --read-first); [ "${AFFINITY:-0}" = 1 ] || pin=(--unpinned)
                for s in $(seq 0 $((c - 1))); do
                    "$FLOOR" --engine "$eng" "${xq[@]}" $(( (p + c - 1) / c )) "$NODES" --slot "$s" "${pin[@]}" \
                        --json "$OUT/floor-$tag-s$s.json" > "$OUT/floor-$tag-s$s.log" 2>&1 &
                done
                wait
                read -r fp fw fc < <(python3 - "$OUT"/floor-"$tag"-s*.json <<'PY'
import json, sys
rows = [json.load(open(f)) for f in sys.argv[1:]]
print(sum(r["plies"] for r in rows), max(r["wall_s"] for r in rows), sum(r["cpu_s"] for r in rows))
PY
)
                row floor "$game" "$c" "$run" 0 "$fp" "$fw" "$fc" 0 "$l"
            elif want floor; then
                [ "$run" = 1 ] && echo "# floor: skipped ($FLOOR not built)" >&2
            fi
            if want noref; then
                l=$(load1)
                j="$OUT/noref-$tag.json"
                if python3 $HERE/selfplay_noref.py --game "$game" --engine "$eng" \
                    --openings "$book" --games "$GAMES" --nodes "$NODES" --max-plies "$MAXPLIES" \
                    --concurrency "$c" --pgnout "$OUT/noref-$tag.pgn" --json "$j" \
                    > "$OUT/noref-$tag.log" 2>&1; then
                    row noref "$game" "$c" "$run" "$(jget "$j" games)" "$(jget "$j" plies)" \
                        "$(jget "$j" wall_s)" "$(jget "$j" driver_cpu_s)" "$(jget "$j" engines_cpu_s)" "$l"
                else
                    echo "# noref $tag failed, see $OUT/noref-$tag.log" >&2
                fi
            fi
        done
    done
done
if [ "${INSTR:-0}" = 1 ]; then
    IG=${INSTR_GAMES:-20}
    PY=$(python3 -c 'import sys; print(sys.executable)')  # not a pyenv shim: valgrind must see python
    FVG=${FASTCHESS_VG:-${FASTCHESS:-}}
    echo
    echo "instructions of the runner itself (valgrind callgrind, engines native), concurrency 1, $IG games:"
    printf '%-10s %-8s %6s %7s %14s %10s\n' runner game games plies instructions instr/ply
    vg() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --trace-children=no "$@"; }
    irow() { # runner game pgn log
        if [ ! -s "$3" ]; then echo "# $1 $2: no PGN, see $4" >&2; return; fi
        read -r g p < <(python3 $HERE/pgn_plies.py "$3")
        ir=$(grep -o 'refs: *[0-9,]*' "$4" | tail -1 | tr -dc 0-9)
        awk -v r="$1" -v gm="$2" -v g="$g" -v p="$p" -v ir="${ir:-0}" 'BEGIN {
            printf "%-10s %-8s %6d %7d %14d %10.0f\n", r, gm, g, p, ir, p ? ir / p : 0 }' | tee -a "$OUT/instr.tsv"
    }
    for game in $WHAT; do
        book=$HERE/openings-$game.epd
        if [ "$game" = chess ]; then eng=$STOCKFISH; coords=""; else eng=$FAIRY; coords="coords=fsf"; fi
        tag="$game-instr"
        rm -f "$OUT"/*-"$tag".pgn
        if [ "$have_fastchess" = 1 ] && [ "$game" = chess ] && [ -n "$FVG" ]; then
            vg "$FVG" -engine cmd="$eng" name=A -engine cmd="$eng" name=B \
                -each tc=inf nodes="$NODES" proto=uci \
                -openings file="$book" format=epd order=sequential \
                -games 2 -rounds $(( (IG + 1) / 2 )) -concurrency 1 \
                -pgnout file="$OUT/fastchess-$tag.pgn" -config outname="$OUT/fastchess-$tag.config.json" \
                > "$OUT/fastchess-$tag.log" 2>&1
            irow fastchess "$game" "$OUT/fastchess-$tag.pgn" "$OUT/fastchess-$tag.log"
        fi
        if [ "$have_arbiter" = 1 ]; then
            vg "$ARBITER" match \
                --engine name=A cmd="$eng" proto=uci $coords \
                --engine name=B cmd="$eng" proto=uci $coords \
                --each nodes="$NODES" --game "$game" \
                --openings file="$book" format=epd order=sequential \
                --games "$IG" --concurrency 1 \
                --pgnout "$OUT/arbiter-$tag.pgn" > "$OUT/arbiter-$tag.log" 2>&1
            irow arbiter "$game" "$OUT/arbiter-$tag.pgn" "$OUT/arbiter-$tag.log"
        fi
        if want noref; then
            vg "$PY" $HERE/selfplay_noref.py --game "$game" --engine "$eng" \
                --openings "$book" --games "$IG" --nodes "$NODES" --max-plies "$MAXPLIES" \
                --pgnout "$OUT/noref-$tag.pgn" > "$OUT/noref-$tag.log" 2>&1
            irow noref "$game" "$OUT/noref-$tag.pgn" "$OUT/noref-$tag.log"
        fi
    done
fi
if [ "$RUNS" -gt 1 ] && [ -s "$ROWS" ]; then
    echo
    echo "median (min-max) over $RUNS runs:"
    python3 - "$ROWS" "$OUT/own.tsv" <<'PY'
import os, statistics, sys
runs = {}
# arbiter's own "runner CPU" a ply by (game, conc, run), where its log gave one.
own_us = {}
if os.path.exists(sys.argv[2]):
    for line in open(sys.argv[2]):
        g, c, n, us = line.split()
        own_us[(g, c, n)] = float(us)
for line in open(sys.argv[1]):
    f = line.split()
    runs.setdefault((f[0], f[1], f[2]), []).append(f)
print(f"{'runner':10} {'game':8} {'conc':>4} {'games/min':>20} {'runner us/ply':>20} {'wall ms/ply':>20} {'ply/game':>8}")
for (r, g, c), rows in runs.items():
    def col(i, d=1):
        v = [float(x[i]) for x in rows]
        return f"{statistics.median(v):.{d}f} ({min(v):.{d}f}-{max(v):.{d}f})"
    print(f"{r:10} {g:8} {c:>4} {col(6):>20} {col(11):>20} {col(12, 3):>20} {rows[0][10]:>8}")
# arbiter over the floor of the same run: what the runner adds to the bare pipe exchange.
floor = {(f[1], f[2], f[3]): float(f[11]) for rows in runs.values() for f in rows if f[0] == "floor"}
own = {}
for rows in runs.values():
    for f in rows:
        key = (f[1], f[2], f[3])
        if f[0] == "arbiter" and key in floor:
            # A slot plays one ply in conc × wall ms/ply: the share of its time. The
            # runner's CPU is its own figure where the log has it (cputree's otherwise).
            us, slot_us = own_us.get(key, float(f[11])), float(f[12]) * 1e3 * int(f[2])
            own.setdefault(key[:2], []).append((us - floor[key], us / slot_us * 100, (us - floor[key]) / slot_us * 100))
if own:
    print()
    print("arbiter over the floor, run by run: median (min-max)")
    print(f"{'game':8} {'conc':>4} {'over floor us/ply':>20} {'runner CPU % of ply':>20} {'over floor % of ply':>20}")
    for (g, c), v in own.items():
        def med(i, d):
            xs = [x[i] for x in v]
            return f"{statistics.median(xs):.{d}f} ({min(xs):.{d}f}-{max(xs):.{d}f})"
        print(f"{g:8} {c:>4} {med(0, 1):>20} {med(1, 2):>20} {med(2, 2):>20}")
PY
fi
echo "# logs, PGNs and JSON in $OUT" >&2
