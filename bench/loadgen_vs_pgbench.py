#!/usr/bin/env python3
"""ScaleLab's load generator against pgbench, run alternately (A B A B ...).

Starts a throwaway embedded server through `scalelab server start`, loads scale 10 (most of
it in shared buffers, the rest in the OS's page cache: select-only reads about 0.17 blocks
from outside shared buffers per transaction), then for each workload runs pgbench and
`scalelab run` in turn, PAIRS times each, and prints per side the median tps and the median
client CPU time per transaction, and the ratios; and, to tell the client's cost from the
server's, the rest of the machine's CPU per transaction (/proc/stat's busy time less the
tool's own), the idle share and the context switches per transaction. All of them are of each
tool's steady state (issue 33): the runs go with -P 1, and the counted window runs from the end
of the first second in which the tool committed anything (its clients all connected) to one
second before the end, by its own progress lines; the client CPU (user + sys of all its
threads, /proc/PID/stat) and the machine's (/proc/stat) are read at the window's edges.
The initial connection time is a figure of its own. (Before 2026-12-02 the script divided
pgbench's whole-run figures, whose -T clock includes its serial connects, by ScaleLab's
steady-state ones: at 256 clients and more that compared a connection phase with an event loop.)

    bench/loadgen_vs_pgbench.py [--scalelab build/release/app/scalelab] [--pairs 5] [--time 10]
                                [--workloads select-only,tpcb-like,pipeline]

--counts 8,64,256,512,1000 repeats it per client count and ends with a table: per workload and
count the median tps ratio and client-CPU-per-transaction ratio with a bootstrap 95% interval
(pairs resampled together), both sides' median initial connection time and peak resident
memory (VmRSS at the progress lines). --engines wire,libpq runs one ScaleLab side per engine
(docs/load-engines.md), each against pgbench. --csv FILE writes
every run as a runs CSV for `scalelab import` (series "pgbench select-only", ...), so that
ScaleLab's own export can chart it.

`pipeline` is a custom script in extended mode: ten select-only statements (random keys) sent
in one libpq pipeline (\startpipeline ... \endpipeline) per transaction.

With --data: the data instead of the load generator. Two databases of one server, one made by
`pgbench -i -s 10` and one by `scalelab init --scale 10`, run tpcb-like alternately with the
same generator (pgbench), and print the median tps on each and the ratio.

    bench/loadgen_vs_pgbench.py --data [--pairs 7] [--time 10]
"""
import argparse, os, re, resource, shutil, statistics, subprocess, sys, tempfile, threading, time

def run_child(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stdout}{out.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tps = float(re.search(r"^tps = ([0-9.]+)", out.stdout, re.M).group(1))
    n = int(re.search(r"^number of transactions actually processed: (\d+)", out.stdout, re.M).group(1))
    conn = re.search(r"^initial connection time = ([0-9.]+) ms", out.stdout, re.M)
    return tps, cpu / n * 1e6, float(conn.group(1)) if conn else float("nan")  # us of client CPU per transaction

PROGRESS = re.compile(r"^progress: ([0-9.]+) s, ([0-9.]+) tps")

def cpu_seconds(pid):
    """utime + stime of every thread of the process so far (/proc/PID/stat), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def rss_kb(pid):
    """The process's resident memory now (/proc/PID/status VmRSS), in KiB."""
    with open(f"/proc/{pid}/status") as f:  # an exited process (a zombie) has no VmRSS line: 0
        return next((int(l.split()[1]) for l in f if l.startswith("VmRSS:")), 0)

def machine_cpu():
    """(busy seconds, idle seconds, context switches) of the whole machine so far (/proc/stat)."""
    with open("/proc/stat") as f:
        text = f.read()
    ticks = [int(x) for x in text.split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    busy = sum(ticks[:8]) - idle  # user nice system idle iowait irq softirq steal (guest is in user)
    ctxt = int(re.search(r"^ctxt (\d+)", text, re.M).group(1))
    hz = os.sysconf("SC_CLK_TCK")
    return busy / hz, idle / hz, ctxt

def run_steady(cmd):
    """One run with -P 1, measured over its steady state (issue 33): from the end of the first
    second in which it committed anything (every client connected: both tools connect before
    their clients start) until one second before the end, by its own progress lines; the
    client CPU over the same window from /proc/PID/stat, sampled as each progress line
    arrives. Returns (tps, client CPU us per transaction, initial connection ms, peak resident
    memory KiB seen at the progress lines, the rest of the machine's CPU us per transaction
    (busy CPU in /proc/stat less the tool's: the server, and whatever else ran), the machine's
    idle share, context switches per transaction), the last three over the same window."""
    proc = subprocess.Popen(cmd + ["-P", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A tool that hangs is killed, not waited for: its -T plus two minutes for connecting.
    seconds_allowed = float(cmd[cmd.index("-T") + 1]) + 120 if "-T" in cmd else 600
    watchdog = threading.Timer(seconds_allowed, proc.kill)
    watchdog.start()
    lines, err = [], []
    rss_peak_kb = 0
    for line in proc.stderr:
        m = PROGRESS.match(line)
        if m:
            try:
                lines.append((float(m.group(1)), float(m.group(2)), cpu_seconds(proc.pid), machine_cpu()))
                rss_peak_kb = max(rss_peak_kb, rss_kb(proc.pid))
            except OSError:  # the process is gone: the last line carries no CPU figure
                lines.append((float(m.group(1)), float(m.group(2)), float("nan"), machine_cpu()))
        else:
            err.append(line)
    out = proc.stdout.read()
    watchdog.cancel()
    if proc.wait() != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out}{''.join(err)}")
    first = next((i for i, l in enumerate(lines) if l[1] > 0), None)
    if first is None or len(lines) - 1 - (first + 1) < 2:
        sys.exit(f"too short a steady state in {' '.join(cmd)}: progress {lines}; give a longer --time")
    window = lines[first + 1:len(lines) - 1]  # after the first busy second, before the last one
    start = lines[first]
    seconds = window[-1][0] - start[0]
    transactions = sum(tps * (x - prev[0]) for (x, tps, _, _), prev in zip(window, [start] + window[:-1]))
    cpu = window[-1][2] - start[2]
    busy, idle, ctxt = (end - begin for end, begin in zip(window[-1][3], start[3]))
    conn = re.search(r"^initial connection time = ([0-9.]+) ms", out, re.M)
    return (transactions / seconds, cpu / transactions * 1e6, float(conn.group(1)) if conn else float("nan"),
            rss_peak_kb, (busy - cpu) / transactions * 1e6, idle / (busy + idle), ctxt / transactions)

def bootstrap_ratio(a, b, rounds=2000, seed=1):
    """95% interval of median(b)/median(a), resampling the pairs (a[i], b[i]) together."""
    import random
    rng = random.Random(seed)
    n = len(a)
    stats = []
    for _ in range(rounds):
        idx = [rng.randrange(n) for _ in range(n)]
        stats.append(statistics.median(b[i] for i in idx) / statistics.median(a[i] for i in idx))
    stats.sort()
    return stats[int(0.025 * rounds)], stats[int(0.975 * rounds) - 1]

def compare_data(a, conninfo):
    """tpcb-like with pgbench on data made by pgbench -i and by scalelab init, alternately."""
    def with_db(db):
        return re.sub(r"dbname=\S+", f"dbname={db}", conninfo)
    for db in ("data_pgbench", "data_scalelab"):
        subprocess.run(["psql", conninfo, "-Xqc", f"DROP DATABASE IF EXISTS {db}"], check=True, capture_output=True)
        subprocess.run(["psql", conninfo, "-Xqc", f"CREATE DATABASE {db}"], check=True, capture_output=True)
    subprocess.run([a.pgbench, "-i", "-s", "10", with_db("data_pgbench")], check=True, capture_output=True)
    subprocess.run([a.scalelab, "init", "--conninfo", with_db("data_scalelab"), "--scale", "10"], check=True, capture_output=True)
    common = ["-c", str(a.clients), "-j", str(a.threads), "-T", str(a.time), "-M", "prepared"]
    print(f"pgbench: {subprocess.run([a.pgbench, '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"tpcb-like with pgbench on both; c={a.clients} j={a.threads} T={a.time} prepared, scale 10, {a.pairs} pairs\n")
    sides = {"pgbench -i": [], "scalelab init": []}
    for i in range(a.pairs):
        sides["pgbench -i"].append(run_child([a.pgbench, with_db("data_pgbench")] + common)[0])
        sides["scalelab init"].append(run_child([a.pgbench, with_db("data_scalelab")] + common)[0])
        print(f"  pair {i + 1}: pgbench -i data {sides['pgbench -i'][-1]:.0f} tps, "
              f"scalelab init data {sides['scalelab init'][-1]:.0f} tps", flush=True)
    med = {k: statistics.median(v) for k, v in sides.items()}
    ratios = sorted(b / a_ for a_, b in zip(sides["pgbench -i"], sides["scalelab init"]))
    for k, v in med.items():
        print(f"  {k:14s} median tps {v:10.1f}")
    print(f"  ratio scalelab init / pgbench -i: median of medians {med['scalelab init'] / med['pgbench -i']:.3f}, "
          f"pairwise ratios {ratios[0]:.3f} .. {ratios[-1]:.3f} (median {statistics.median(ratios):.3f})")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scalelab", default="build/release/app/scalelab")
    ap.add_argument("--pgbench", default=shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--time", type=int, default=10)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--data", action="store_true", help="compare the data of pgbench -i and scalelab init instead")
    ap.add_argument("--workloads", default="select-only,tpcb-like",
                    help="comma-separated: select-only, tpcb-like (both -M prepared), select-only-simple, tpcb-like-simple, pipeline")
    ap.add_argument("--counts", default="", help="comma-separated client counts (overrides --clients), e.g. 8,64,256,512,1000")
    ap.add_argument("--csv", default="", help="also write every run as a runs CSV (series, clients, repetition, tps) for scalelab import")
    ap.add_argument("--engines", default="", help="comma-separated ScaleLab engines to run as sides of their own (wire,libpq); "
                    "default: one side, the engine ScaleLab chooses")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="scalelab-bench-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    try:
        # Room for every client of both tools (pgbench does not size the server).
        counts = [int(c) for c in a.counts.split(",")] if a.counts else [a.clients]
        settings = ["--set", f"max_connections={max(100, max(counts) + 20)}"]
        subprocess.run([a.scalelab, "server", "start", "--data", data] + settings, check=True, capture_output=True)
        conninfo = subprocess.run([a.scalelab, "server", "status", "--data", data, "--conninfo"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        if a.data:
            compare_data(a, conninfo)
            return
        subprocess.run([a.scalelab, "init", "--data", data, "--scale", "10"], check=True, capture_output=True)
        pipeline = os.path.join(work, "pipeline.sql")
        with open(pipeline, "w") as f:
            f.write("\\startpipeline\n")
            for k in range(10):
                f.write(f"\\set aid{k} random(1, 1000000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid{k};\n")
            f.write("\\endpipeline\n")
        os.chmod(pipeline, 0o644)
        flags = {"select-only": ["-S", "-M", "prepared"], "tpcb-like": ["-M", "prepared"],
                 "select-only-simple": ["-S", "-M", "simple"], "tpcb-like-simple": ["-M", "simple"],
                 "pipeline": ["-f", pipeline, "-M", "extended"]}
        print(f"pgbench: {subprocess.run([a.pgbench, '--version'], capture_output=True, text=True).stdout.strip()}")
        print(f"scalelab: {a.scalelab}; clients {counts} j={a.threads} T={a.time}, scale 10, {a.pairs} pairs\n")
        engines = a.engines.split(",") if a.engines else [""]
        names = ["scalelab" + (f"-{e}" if e else "") for e in engines]
        rows, csv_rows = [], []
        for clients in counts:
            common = ["-c", str(clients), "-j", str(a.threads), "-T", str(a.time)]
            for name in a.workloads.split(","):
                flag = flags[name]
                sides = {"pgbench": [], **{n: [] for n in names}}
                for i in range(a.pairs):
                    sides["pgbench"].append(run_steady([a.pgbench, conninfo] + common + flag))
                    for side, engine in zip(names, engines):
                        extra = ["--engine", engine] if engine else []
                        sides[side].append(run_steady([a.scalelab, "run", "--conninfo", conninfo] + common + flag + extra))
                    for side in sides:
                        csv_rows.append((f"{side} {name}", clients, i + 1, sides[side][-1][0]))
                    print(f"  {name} c={clients} pair {i + 1}: " +
                          ", ".join(f"{side} {sides[side][-1][0]:.0f} tps" for side in sides), flush=True)
                med = {k: [statistics.median(r[j] for r in v) for j in range(7)] for k, v in sides.items()}
                print(f"{name}, {clients} clients:")
                for k, (tps, cpu, conn, rss, rest, idle, ctxt) in med.items():
                    print(f"  {k:16s} median tps {tps:10.1f}   client CPU/transaction {cpu:7.2f} us   "
                          f"initial connection {conn:8.1f} ms   resident {rss / 1024:7.1f} MiB")
                    print(f"  {'':16s} rest of the machine's CPU/transaction {rest:7.2f} us   idle {100 * idle:5.1f}%   "
                          f"context switches/transaction {ctxt:5.2f}")
                for side in names:
                    tps_lo, tps_hi = bootstrap_ratio([r[0] for r in sides["pgbench"]], [r[0] for r in sides[side]])
                    cpu_lo, cpu_hi = bootstrap_ratio([r[1] for r in sides["pgbench"]], [r[1] for r in sides[side]])
                    tps_ratio, cpu_ratio = med[side][0] / med["pgbench"][0], med[side][1] / med["pgbench"][1]
                    print(f"  ratio {side}/pgbench: tps {tps_ratio:.3f} [{tps_lo:.3f}, {tps_hi:.3f}], "
                          f"CPU/transaction {cpu_ratio:.3f} [{cpu_lo:.3f}, {cpu_hi:.3f}] (bootstrap 95%)", flush=True)
                    rows.append((name, clients, side, tps_ratio, tps_lo, tps_hi, cpu_ratio, cpu_lo, cpu_hi,
                                 med["pgbench"][2], med[side][2], med["pgbench"][3], med[side][3],
                                 med["pgbench"][4], med[side][4]))
                print()
        if len(rows) > 1:
            print("| workload | clients | side | tps ratio [95%] | CPU/tx ratio [95%] | pgbench connect ms | scalelab connect ms "
                  "| pgbench RSS MiB | scalelab RSS MiB | rest of the machine's CPU/tx, us: pgbench | scalelab |")
            print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            for r in rows:
                print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.3f} [{r[4]:.3f}, {r[5]:.3f}] | {r[6]:.3f} [{r[7]:.3f}, {r[8]:.3f}] "
                      f"| {r[9]:.1f} | {r[10]:.1f} | {r[11] / 1024:.1f} | {r[12] / 1024:.1f} | {r[13]:.1f} | {r[14]:.1f} |")
        if a.csv:
            with open(a.csv, "w") as f:
                f.write("series,clients,repetition,tps\n")
                for series, clients, rep_, tps in csv_rows:
                    f.write(f"{series},{clients},{rep_},{tps:.3f}\n")
    finally:
        subprocess.run([a.scalelab, "server", "stop", "--data", data], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
