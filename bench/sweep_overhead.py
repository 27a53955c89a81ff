#!/usr/bin/env python3
"""The cost of the sweep itself and the load generator's memory per client.

Sweep overhead: a sweep of four short select-only runs at 8 clients, and one at 1,000
(embedded server, scale 10); the sweep's wall time minus the measured seconds, per run, is what
it spends besides measuring: the server check, housekeeping, connecting the run's clients,
disconnecting, storing the run (amortized: the first run's one-time work is in it).

Memory: the peak RSS of `pgbench` and of `scalelab run` (getrusage of the child) at 100 and at
1,000 clients, select-only, prepared; (RSS(1000) - RSS(100)) / 900 is the memory per client.

    bench/sweep_overhead.py [--scalelab build/release/app/scalelab] [--time 5]
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time

def peak_rss_kb(cmd):
    """Peak RSS of a child that runs cmd (a fresh Python child, so earlier children don't count)."""
    probe = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
             "sys.exit(r.stdout + r.stderr) if r.returncode else print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", probe] + cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stdout}{out.stderr}")
    return int(out.stdout.strip())

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scalelab", default="build/release/app/scalelab")
    ap.add_argument("--pgbench", default=shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench")
    ap.add_argument("--time", type=int, default=5)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="scalelab-overhead-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    try:
        subprocess.run([a.scalelab, "server", "start", "--data", data, "--set", "max_connections=1100"],
                       check=True, capture_output=True)
        conninfo = subprocess.run([a.scalelab, "server", "status", "--data", data, "--conninfo"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        subprocess.run([a.scalelab, "init", "--data", data, "--scale", "10"], check=True, capture_output=True)

        print("memory: peak RSS, select-only prepared, -j 2, -T", a.time)
        rss = {}
        for tool in ("pgbench", "scalelab"):
            for clients in (100, 1000):
                common = ["-S", "-M", "prepared", "-c", str(clients), "-j", "2", "-T", str(a.time)]
                cmd = [a.pgbench, conninfo] + common if tool == "pgbench" else [a.scalelab, "run", "--conninfo", conninfo] + common
                rss[(tool, clients)] = peak_rss_kb(cmd)
                print(f"  {tool:8s} {clients:5d} clients: {rss[(tool, clients)] / 1024:8.1f} MiB", flush=True)
            per = (rss[(tool, 1000)] - rss[(tool, 100)]) / 900
            print(f"  {tool:8s} per client: {per:.1f} KiB", flush=True)

        print(f"\nsweep: 4 runs of {a.time} s at one client count; (wall time - 4 x {a.time} s) / 4 per run")
        for clients in (8, 1000):
            plan = {"version": 1, "target": {"data_dir": data},
                    "workload": {"builtin": "select-only", "mode": "prepared"},
                    "series": [{"label": "s"}], "clients": [clients], "threads": 2,
                    "duration": a.time, "repetitions": 4, "data": {"scale": 10}}
            with open(os.path.join(work, "plan.json"), "w") as f:
                json.dump(plan, f)
            out = os.path.join(work, f"e{clients}.slab")
            started = time.monotonic()
            subprocess.run([a.scalelab, "sweep", os.path.join(work, "plan.json"), "-o", out, "-q"], check=True)
            wall = time.monotonic() - started
            print(f"  {clients:4d} clients: wall {wall:.1f} s, {(wall - 4 * a.time) / 4:.2f} s per run besides the "
                  f"measured {a.time} s", flush=True)
    finally:
        subprocess.run([a.scalelab, "server", "stop", "--data", data], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
