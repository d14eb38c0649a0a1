#!/usr/bin/env python3
"""Runs a command and splits its CPU time between the command itself and its descendants.

    python3 tools/bench/cputree.py OUT.json -- COMMAND ARGS...

/usr/bin/time cannot do this: it reports the command plus whichever children it reaped, and a
match runner that kills its engines without waiting for them hides their time altogether.
Here /proc/PID/stat (utime+stime, all threads of the process, 10 ms ticks) is read for the
command and every descendant each --interval seconds (default 0.1); the last reading of each
process counts. `runner_cpu_s` is the command's own last reading (it can miss at most one
interval, at the very end, when a runner is only stopping its engines). `rusage_total_cpu_s` is
what /usr/bin/time would say (wait4: the command plus the children it reaped). Descendants that live less than
one interval are missed, which for engine matches (engines live for the whole match or game)
costs at most one interval of each engine's time.

The JSON written: wall_s, runner_cpu_s, runner_user_s, runner_sys_s, descendants_cpu_s,
descendants (name -> cpu s, summed per executable name), exit code, max_rss_kb, polls, and
the poller's own CPU.
"""

import json
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def stat(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            s = f.read()
    except OSError:
        return None
    comm = s[s.index("(") + 1 : s.rindex(")")]
    rest = s[s.rindex(")") + 2 :].split()
    # fields after comm: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17)
    ut, st, cut, cst = (int(rest[i - 3]) for i in (14, 15, 16, 17))
    return comm, ut, st, cut, cst


def children(pid):
    kids = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    kids += [int(x) for x in f.read().split()]
            except OSError:
                pass
    except OSError:
        pass
    return kids


def main():
    args = sys.argv[1:]
    interval = 0.1
    if args and args[0].startswith("--interval="):
        interval = float(args.pop(0).split("=", 1)[1])
    out = args.pop(0)
    if args[0] == "--":
        args.pop(0)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(args[0], args)
        finally:
            os._exit(127)
    last = {}  # pid -> (comm, cpu ticks)
    runner = (0, 0, 0, 0)
    polls = 0
    while True:
        done, status, ru = os.wait4(pid, os.WNOHANG)
        if done:
            break
        polls += 1
        s = stat(pid)
        if s:
            runner = s[1:]
        todo = children(pid)
        while todo:
            c = todo.pop()
            cs = stat(c)
            if cs:
                last[c] = (cs[0], cs[1] + cs[2])
                todo += children(c)
        time.sleep(interval)
    wall = time.monotonic() - t0
    ut, st, cut, cst = runner
    polled_own = (ut + st) / TICK
    total = ru.ru_utime + ru.ru_stime  # what /usr/bin/time reports
    desc = {}
    for comm, ticks in last.values():
        desc[comm] = desc.get(comm, 0.0) + ticks / TICK
    me = os.times()
    res = {
        "cmd": args,
        "exit": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 3),
        "runner_cpu_s": round(polled_own, 3),
        "runner_user_s": round(ut / TICK, 3),
        "runner_sys_s": round(st / TICK, 3),
        "runner_reaped_children_cpu_s": round((cut + cst) / TICK, 3),
        "rusage_total_cpu_s": round(total, 3),
        "descendants_cpu_s": round(sum(desc.values()), 3),
        "descendants": {k: round(v, 3) for k, v in desc.items()},
        "descendant_processes": len(last),
        "max_rss_kb": ru.ru_maxrss,
        "polls": polls,
        "poller_cpu_s": round(me.user + me.system, 3),
    }
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    sys.exit(res["exit"])


if __name__ == "__main__":
    main()
