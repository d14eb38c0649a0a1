#!/usr/bin/env bash
# Two or more arbiter builds on the same engine match, interleaved (A, B, A, B, …), so that a
# machine whose speed drifts (±15 % between runs of one binary is common on shared VMs) moves
# every build alike. Prints one line a run and then, per build and game, the median of the
# runner's own CPU a ply ("runner CPU" in `arbiter match`'s summary) and of games per minute.
#
#   tools/bench/ab.sh target/release/arbiter /path/to/other/arbiter
#
# Environment (all optional):
#   ROUNDS     runs of each build (default 3)
#   GAMES      games a run (default 100: 50 openings x 2 colours)
#   WHAT       any of "chess xiangqi" (default both)
#   NODES      nodes a move (default 1000)
#   CONC       concurrency (default 1)
#   AFFINITY   1 (default): `--affinity --yield-to-engines`; 0: unpinned
#   STOCKFISH, FAIRY   engine binaries (default /usr/games/stockfish, /usr/games/fairy-stockfish)
set -u
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
GAMES=${GAMES:-100}
WHAT=${WHAT:-"chess xiangqi"}
NODES=${NODES:-1000}
CONC=${CONC:-1}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
AFF=(); [ "${AFFINITY:-1}" = 1 ] && AFF=(--affinity --yield-to-engines)
[ $# -ge 2 ] || { echo "usage: $0 ARBITER_A ARBITER_B [ARBITER…]" >&2; exit 2; }
OUT=$(mktemp -d /tmp/ab.XXXXXX)
printf '%-4s %-8s %5s %12s %10s\n' build game round "runner µs/ply" games/min
for r in $(seq "$ROUNDS"); do
    for i in $(seq $#); do
        bin=${!i}
        for game in $WHAT; do
            if [ "$game" = chess ]; then eng=$STOCKFISH; coords=(); else eng=$FAIRY; coords=(coords=fsf); fi
            log="$OUT/$i-$game-$r.log"
            "$bin" match --engine name=A cmd="$eng" proto=uci "${coords[@]}" \
                --engine name=B cmd="$eng" proto=uci "${coords[@]}" \
                --each nodes="$NODES" --game "$game" \
                --openings file="tools/bench/openings-$game.epd" format=epd order=sequential \
                --games "$GAMES" --concurrency "$CONC" --pgnout "$OUT/$i-$game-$r.pgn" "${AFF[@]}" \
                > "$log" 2>&1
            us=$(sed -nE 's/.*runner CPU: ([0-9.]+) .*/\1/p' "$log" | tail -1)
            gm=$(sed -nE 's/.*\(([0-9.]+) games\/min\).*/\1/p' "$log" | tail -1)
            printf '%-4s %-8s %5s %12s %10s\n' "$i" "$game" "$r" "${us:-failed}" "${gm:-failed}" | tee -a "$OUT/rows"
        done
    done
done
echo
echo "medians over $ROUNDS rounds (builds: $*)"
for i in $(seq $#); do
    for game in $WHAT; do
        awk -v b="$i" -v g="$game" 'BEGIN { n = 0 } $1 == b && $2 == g && $4 != "failed" { us[n] = $4; gm[n] = $5; n++ }
            function median(a, n,   i, j, t) {
                for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
            }
            END { if (n) printf "%-4s %-8s runner %.1f µs/ply, %.1f games/min (%d runs)\n", b, g, median(us, n), median(gm, n), n }' "$OUT/rows"
    done
done
echo "# logs and PGNs in $OUT"
