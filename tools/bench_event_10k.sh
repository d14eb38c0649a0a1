#!/bin/sh
# Times `arbiter tournament pair` and `standings` end to end (process start, the event read
# from SQLite and parsed, the change made, the document written back) on 10,000-entrant events
# of each format but the Dutch (issue 27). The events come from the event_10k example.
#
#   sh tools/bench_event_10k.sh [RUNS] [PLAYERS] [RR_ROUNDS]
#
# RR_ROUNDS (default 10) is how many rounds of the round robin are played before its `pair`,
# `standings` and `result` are timed: 5000 is a middle round of 10,000 players (25 million
# games, kept as one result code a board).
#
# Needs `cargo build --profile ci -p arbiter -p arbiter-tournament --example event_10k` (or set
# ARBITER and EXAMPLE). Prints the median wall time of RUNS runs per command; each `pair` runs
# on a fresh import of the event, so every run pairs the same round.
set -eu
runs=${1:-5}
players=${2:-10000}
rr=${3:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
arbiter=${ARBITER:-$root/target/ci/arbiter}
example=${EXAMPLE:-$root/target/ci/examples/event_10k}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$example" --players "$players" --runs 1 --rr-rounds "$rr" --write "$work" >/dev/null
db="$work/events.db"

now() { date +%s.%N; }
median() { sort -n | awk '{ t[NR] = $1 } END { printf "%.0f", t[int((NR + 1) / 2)] * 1000 }'; }

# time_cmd LABEL FILE COMMAND…: COMMAND run RUNS times on fresh imports of FILE (NAME in it).
time_cmd() {
    label=$1 file=$2
    shift 2
    i=0
    while [ "$i" -lt "$runs" ]; do
        i=$((i + 1))
        name="e$(date +%s%N)"
        "$arbiter" tournament import "$name" "$work/$file" --db "$db" >/dev/null
        cmd=$(echo "$*" | sed "s/NAME/$name/")
        t0=$(now)
        # shellcheck disable=SC2086
        $arbiter tournament $cmd --db "$db" >/dev/null
        t1=$(now)
        echo "$t1 - $t0" | bc -l
    done | median
    echo " ms  $label"
}

echo "$players entrants, median of $runs runs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
time_cmd "round robin: pair round 1" rr-new.json pair NAME
time_cmd "round robin: pair round $((rr + 1))" "rr-$rr.json" pair NAME
time_cmd "round robin: standings after $rr rounds" "rr-$rr.json" standings NAME
time_cmd "round robin: enter one result ($((rr + 1)).$((players / 4 + 1)))" "rr-$rr-paired.json" result NAME "$((rr + 1)).$((players / 4 + 1))" 1-0
time_cmd "round robin: correct one result ($(((rr + 1) / 2)).$((players / 4 + 1)))" "rr-$rr-paired.json" result NAME "$(((rr + 1) / 2)).$((players / 4 + 1))" 1/2 --replace
time_cmd "groups: pair round 4" groups-3.json pair NAME
time_cmd "groups: standings after 3 rounds" groups-3.json standings NAME
time_cmd "knockout: pair round 2" knockout-1.json pair NAME
time_cmd "knockout: standings after round 1" knockout-1.json standings NAME
time_cmd "double knockout: pair round 2" double-knockout-1.json pair NAME
time_cmd "card draw: pair round 2" cards-1.json pair NAME
