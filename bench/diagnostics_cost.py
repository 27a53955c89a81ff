#!/usr/bin/env python3
"""What a diagnostic costs (issue 62): tps with it on and off, side by side.

--diagnostic waits (sampling where the sessions wait, on by default in sweeps) or cpu_profile
(perf record -g of the server at --hz). For each workload (select-only prepared, tpcb-like) and
client count (8 and 256 by default), one-run sweeps alternate between the diagnostic on and off
(A B A B ..., PAIRS times each) against one embedded server kept running (scale 10), and the
script prints each side's median tps, the ratio on/off of the medians, and a bootstrap 95%
interval of that ratio (resampling each side's runs, fixed seed). The tps is the load
generator's, over each run's counted window (after every client connected), the same phase on
both sides; the diagnostic covers that same window.

    bench/diagnostics_cost.py [--diagnostic waits|cpu_profile] [--hz 99]
                              [--scalelab build/release/app/scalelab] [--time 5] [--pairs 5]
                              [--clients 8,256]
"""
import argparse, json, os, random, shutil, statistics, subprocess, sys, tempfile


def tps_of(scalelab, experiment):
    subprocess.run([scalelab, "export", experiment, "--json", experiment + ".json"], check=True, capture_output=True)
    with open(experiment + ".json") as f:
        runs = json.load(f)["runs"]
    done = [r for r in runs if r.get("status") == "completed"]
    if len(done) != 1:
        sys.exit(f"{experiment}: expected one completed run, found {len(done)} of {len(runs)}")
    return done[0]["tps"]


def bootstrap_ratio(on, off, rounds=10000, seed=62):
    rng = random.Random(seed)
    ratios = sorted(statistics.median(rng.choices(on, k=len(on))) / statistics.median(rng.choices(off, k=len(off)))
                    for _ in range(rounds))
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scalelab", default="build/release/app/scalelab")
    ap.add_argument("--time", type=float, default=5)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--clients", default="8,256")
    ap.add_argument("--diagnostic", default="waits", choices=["waits", "cpu_profile"])
    ap.add_argument("--hz", type=float, default=99)
    a = ap.parse_args()
    clients = [int(c) for c in a.clients.split(",")]
    work = tempfile.mkdtemp(prefix="scalelab-diagnostics-cost-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    try:
        subprocess.run([a.scalelab, "server", "start", "--data", data, "--set", f"max_connections={max(clients) + 40}"],
                       check=True, capture_output=True)
        subprocess.run([a.scalelab, "init", "--data", data, "--scale", "10"], check=True, capture_output=True)
        what = "waits sampled" if a.diagnostic == "waits" else f"the server's CPU profiled at {a.hz:g} Hz"
        print(f"tps with {what} (on) and not (off), {a.pairs} one-run sweeps a side, alternating, "
              f"{a.time:g} s counted window each, scale 10, embedded PostgreSQL")
        print(f"{'workload':24s} {'clients':>7s} {'on median':>10s} {'off median':>10s} {'on/off':>7s}  95% bootstrap")
        n = 0
        for workload in ({"builtin": "select-only", "mode": "prepared"}, {"builtin": "tpcb-like"}):
            for c in clients:
                tps = {True: [], False: []}
                for _ in range(a.pairs):
                    for on in (True, False):
                        # Off is the other diagnostic's default: waits off alone, or no profile
                        # (waits stay on, as sweeps have them, on both sides).
                        diagnostics = {"waits": on} if a.diagnostic == "waits" else \
                            {"cpu_profile": on, "profile_hz": a.hz}
                        plan = {"version": 1, "target": {"data_dir": data}, "workload": workload,
                                "series": [{"label": "s"}], "clients": [c], "threads": 2, "duration": a.time,
                                "repetitions": 1, "data": {"scale": 10}, "diagnostics": diagnostics}
                        path = os.path.join(work, "plan.json")
                        with open(path, "w") as f:
                            json.dump(plan, f)
                        n += 1
                        out = os.path.join(work, f"e{n}.slab")
                        subprocess.run([a.scalelab, "sweep", path, "-o", out, "-q"], check=True, capture_output=True)
                        tps[on].append(tps_of(a.scalelab, out))
                on, off = statistics.median(tps[True]), statistics.median(tps[False])
                low, high = bootstrap_ratio(tps[True], tps[False])
                name = workload["builtin"] + (" prepared" if "mode" in workload else "")
                print(f"{name:24s} {c:7d} {on:10.1f} {off:10.1f} {on / off:7.3f}  {low:.3f} .. {high:.3f}", flush=True)
    finally:
        subprocess.run([a.scalelab, "server", "stop", "--data", data], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
