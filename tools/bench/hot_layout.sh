#!/usr/bin/env bash
# Rewrites crates/arbiter/hot.ld from fresh profiles: a 10-game chess match and a 10-game
# Xiangqi match of the given arbiter binary under callgrind (engines not traced, ~1 min each),
# then tools/bench/hot_layout.py. Rebuild arbiter with ARBITER_HOT_LAYOUT=1 to link with it.
#
#   tools/bench/hot_layout.sh [ARBITER]        # default target/release/arbiter
#
# The binary must be named `arbiter` (hot_layout.py picks its functions out by that name).
#
# Environment: STOCKFISH, FAIRY (default /usr/games/stockfish, /usr/games/fairy-stockfish).
set -eu
cd "$(dirname "$0")/../.."
BIN=${1:-target/release/arbiter}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
command -v valgrind >/dev/null || { echo "hot_layout.sh: valgrind is needed" >&2; exit 2; }
OUT=$(mktemp -d /tmp/hot_layout.XXXXXX)
args=()
for game in chess xiangqi; do
    if [ "$game" = chess ]; then eng=$STOCKFISH; coords=(); else eng=$FAIRY; coords=(coords=fsf); fi
    valgrind --tool=callgrind --demangle=no --dump-instr=yes --compress-pos=no --compress-strings=no \
        --toggle-collect='*play_game*' --callgrind-out-file="$OUT/$game.cg" \
        "$BIN" match --engine name=A cmd="$eng" proto=uci "${coords[@]}" \
        --engine name=B cmd="$eng" proto=uci "${coords[@]}" \
        --each nodes=1000 --game "$game" \
        --openings file="tools/bench/openings-$game.epd" format=epd order=sequential \
        --games 10 --concurrency 1 --pgnout "$OUT/$game.pgn" >"$OUT/$game.log" 2>&1
    plies=$(python3 tools/bench/pgn_plies.py "$OUT/$game.pgn" | cut -d' ' -f2)
    args+=("$OUT/$game.cg" "$plies")
done
# Into a file of its own first: a failed run leaves the old layout in place.
python3 tools/bench/hot_layout.py "${args[@]}" > "$OUT/hot.ld"
mv "$OUT/hot.ld" crates/arbiter/hot.ld
echo "crates/arbiter/hot.ld rewritten (profiles in $OUT)"
