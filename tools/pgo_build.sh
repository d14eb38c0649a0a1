#!/usr/bin/env bash
# Builds `arbiter` with profile-guided optimisation for engine matches, as Stockfish's
# `make profile-build` does for the engine: a build instrumented to count what runs, a short
# chess and Xiangqi match played with it, then the release build laid out by those counts
# (hot paths straight and together, cold branches out of the way). Between two moves an
# engine's search runs through the caches, so the runner's own code runs cold every ply and
# costs mostly what it touches: laid out by the profile, `arbiter match` costs 10–25 % less CPU a
# ply (BENCHMARKS.md). Everything else arbiter does works the same in this build; code a match
# does not run is compiled for size, so use `cargo build --release` for serving and events.
# Optional, for long matches: neither the default build nor CI runs it. With
# ARBITER_HOT_LAYOUT=1 in the environment the build also links crates/arbiter/hot.ld.
#
#   tools/pgo_build.sh            # writes target/pgo/arbiter
#
# Needs `llvm-profdata` from rustc's own LLVM (`rustup component add llvm-tools`; the script
# asks rustup for it when it is missing) and at least one engine to train with.
# Environment (all optional): STOCKFISH, FAIRY (default /usr/games/stockfish,
# /usr/games/fairy-stockfish; a game whose engine is missing is left out of the training),
# CARGO_TARGET_DIR (default target), GAMES (training games a match, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}
GAMES=${GAMES:-20}
TARGET=${CARGO_TARGET_DIR:-target}
case $TARGET in /*) ;; *) TARGET=$PWD/$TARGET ;; esac
say() { echo "pgo_build: $*" >&2; }

host=$(rustc -vV | sed -n 's/^host: //p')
profdata=$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata
if [ ! -x "$profdata" ]; then
    say "asking rustup for llvm-tools (llvm-profdata)"
    rustup component add llvm-tools >&2 || rustup component add llvm-tools-preview >&2 || true
fi
[ -x "$profdata" ] || { say "no $profdata: install rustc's llvm-tools component"; exit 2; }

games=()
[ -x "$STOCKFISH" ] && games+=(chess)
[ -x "$FAIRY" ] && games+=(xiangqi)
[ ${#games[@]} -gt 0 ] || { say "no engine to train with ($STOCKFISH, $FAIRY)"; exit 2; }

work=$TARGET/pgo-work
rm -rf "$work"
mkdir -p "$work/raw"
# A target given explicitly keeps RUSTFLAGS off build scripts and procedural macros.
build() {
    RUSTFLAGS="${RUSTFLAGS:-} $1" cargo build --release --locked -p arbiter --target "$host" \
        --target-dir "$2" >&2
}

say "1/3 the instrumented build"
build "-Cprofile-generate=$work/raw" "$TARGET/pgo-generate"
bin=$TARGET/pgo-generate/$host/release/arbiter

# What a match runs a ply: each game over UCI (coordinates as each engine writes them),
# untimed and timed searches, one and two game slots. `match GAME ARGS…` plays with `$bin`.
match() {
    local game=$1 eng coords=()
    if [ "$game" = chess ]; then eng=$STOCKFISH; else eng=$FAIRY; coords=(coords=fsf); fi
    shift
    "$bin" match --engine name=A cmd="$eng" proto=uci "${coords[@]}" \
        --engine name=B cmd="$eng" proto=uci "${coords[@]}" --game "$game" \
        --openings file="tools/bench/openings-$game.epd" format=epd "$@" >"$work/$game.log" 2>&1 \
        || { say "the training match failed:"; cat "$work/$game.log" >&2; exit 1; }
}
say "2/3 training: ${games[*]}"
for game in "${games[@]}"; do
    match "$game" --each nodes=1000 --games "$GAMES" --concurrency 2 --affinity --yield-to-engines \
        --pgnout "$work/$game-nodes.pgn"
    match "$game" --each tc=1+0.02 --games 2 --concurrency 2 --pgnout "$work/$game-tc.pgn"
done
"$profdata" merge -o "$work/arbiter.profdata" "$work"/raw/*.profraw

say "3/3 the optimised build"
# Split machine functions: the blocks the profile never saw run go to a section of their own,
# so a hot function's cold branches no longer share its cache lines.
build "-Cprofile-use=$work/arbiter.profdata -Cllvm-args=-enable-split-machine-functions" "$TARGET/pgo"
cp "$TARGET/pgo/$host/release/arbiter" "$TARGET/pgo/arbiter"

# The built binary plays a short match before it is called built.
bin=$TARGET/pgo/arbiter
match "${games[0]}" --each nodes=1000 --games 2 --pgnout "$work/check.pgn"
grep -q '^2 games in' "$work/${games[0]}.log" || { say "the check match did not play 2 games"; exit 1; }
say "built $TARGET/pgo/arbiter"
