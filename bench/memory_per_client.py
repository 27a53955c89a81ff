#!/usr/bin/env python3
"""Resident memory per client: pgbench against `scalelab run`, alternately (A B A B ...).

Starts a throwaway embedded server through `scalelab server start` (max_connections sized for
the largest count), loads scale 10, then for each pair runs pgbench and `scalelab run` at each
client count (select-only, prepared, -j 2, -T TIME) and reads each process's peak resident set
size (GNU time's %M). Memory per client is the slope between the two
counts: (peak at the larger count - peak at the smaller) / (larger - smaller), per pair, so
that what a tool holds whatever its client count (code, libraries, ScaleLab's sampler) drops
out. Prints each run, then per tool the median slope in KiB per client over the pairs.

    bench/memory_per_client.py [--scalelab build/release/app/scalelab] [--pairs 3]
                               [--counts 100,1000] [--time 5] [--engine wire|libpq]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile

def peak_rss_kib(cmd):
    """Runs cmd to its end under GNU time (Debian's `time` package); its peak resident set size
    in KiB. (Not wait4's ru_maxrss: a child forked from this Python carries the Python's peak
    across its exec.)"""
    with tempfile.NamedTemporaryFile("r") as f:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"failed ({out.returncode}): {' '.join(cmd)}\n{out.stderr}")
        return int(f.read().split()[-1])

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scalelab", default="build/release/app/scalelab")
    ap.add_argument("--pgbench", default=shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--counts", default="100,1000", help="two client counts, comma-separated")
    ap.add_argument("--time", type=int, default=5)
    ap.add_argument("--engine", default="", help="ScaleLab's engine (default: the one it chooses)")
    a = ap.parse_args()
    low, high = (int(c) for c in a.counts.split(","))
    work = tempfile.mkdtemp(prefix="scalelab-mem-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    try:
        subprocess.run([a.scalelab, "server", "start", "--data", data, "--set", f"max_connections={high + 20}"],
                       check=True, capture_output=True)
        conninfo = subprocess.run([a.scalelab, "server", "status", "--data", data, "--conninfo"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        subprocess.run([a.scalelab, "init", "--data", data, "--scale", "10"], check=True, capture_output=True)
        extra = ["--engine", a.engine] if a.engine else []
        tools = {"pgbench": lambda c: [a.pgbench, conninfo, "-c", str(c), "-j", "2", "-T", str(a.time), "-S", "-M", "prepared"],
                 "scalelab": lambda c: [a.scalelab, "run", "--conninfo", conninfo, "-c", str(c), "-j", "2",
                                        "-T", str(a.time), "-S", "-M", "prepared"] + extra}
        slopes = {t: [] for t in tools}
        peaks = {t: {low: [], high: []} for t in tools}
        for i in range(a.pairs):
            for tool, cmd in tools.items():
                kib = {c: peak_rss_kib(cmd(c)) for c in (low, high)}
                for c in kib:
                    peaks[tool][c].append(kib[c])
                slopes[tool].append((kib[high] - kib[low]) / (high - low))
                print(f"  pair {i + 1} {tool:8s}: {low} clients {kib[low] / 1024:6.1f} MiB, {high} clients "
                      f"{kib[high] / 1024:6.1f} MiB, {slopes[tool][-1]:5.2f} KiB per client", flush=True)
        print()
        for tool in tools:
            print(f"{tool:8s} median peak {statistics.median(peaks[tool][low]) / 1024:6.1f} MiB at {low}, "
                  f"{statistics.median(peaks[tool][high]) / 1024:6.1f} MiB at {high}; "
                  f"{statistics.median(slopes[tool]):5.2f} KiB per client (pairs {min(slopes[tool]):.2f} .. {max(slopes[tool]):.2f})")
    finally:
        subprocess.run([a.scalelab, "server", "stop", "--data", data], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
