#!/usr/bin/env python3
"""What a diagnostic costs (issue 62): tps with it on and off, side by side.

--diagnostic waits (sampling where the sessions wait, on by default in sweeps) or cpu_profile
(perf record -g of the server at --hz). For each workload (select-only prepared, tpcb-like) and
client count (8 and 256 by default), one-run sweeps alternate between the diagnostic on and off
(A B A B ..., PAIRS times each) against an embedded server (scale 10), and the script prints
each side's median tps, the ratio on/off of the medians, and a bootstrap 95% interval of that
ratio (resampling each side's runs, fixed seed). The tps is the load generator's, over each
run's counted window (after every client connected), the same phase on both sides; the
diagnostic covers that same window.

Waits from pg_wait_sampling (--waits-source pg_wait_sampling, the default) cost the server its
collector, which runs whenever the library is loaded: "off" is then a cluster that does not
load it (its postgresql.conf sets shared_preload_libraries to pg_stat_statements alone) with
waits off, "on" a cluster that does with waits on; each run starts its cluster and stops it
after, on both sides alike. --waits-source pg_stat_activity measures the polling alone (both
sides on the cluster without the extension). cpu_profile keeps one server running.

    bench/diagnostics_cost.py [--diagnostic waits|cpu_profile] [--hz 99]
                              [--waits-source pg_wait_sampling|pg_stat_activity]
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
    ap.add_argument("--waits-source", default="pg_wait_sampling", choices=["pg_wait_sampling", "pg_stat_activity"])
    a = ap.parse_args()
    clients = [int(c) for c in a.clients.split(",")]
    work = tempfile.mkdtemp(prefix="scalelab-diagnostics-cost-")
    os.chmod(work, 0o755)
    restart = a.diagnostic == "waits"
    # The cluster of each side: "with" loads pg_wait_sampling (ScaleLab's own line), "without" not.
    clusters = {name: os.path.join(work, name) for name in ("with", "without")} if restart else {"one": os.path.join(work, "data")}
    def start(data):
        subprocess.run([a.scalelab, "server", "start", "--data", data, "--set", f"max_connections={max(clients) + 40}"],
                       check=True, capture_output=True)
    def stop(data):
        subprocess.run([a.scalelab, "server", "stop", "--data", data], capture_output=True)
    try:
        for name, data in clusters.items():
            start(data)
            subprocess.run([a.scalelab, "init", "--data", data, "--scale", "10"], check=True, capture_output=True)
            if restart:
                stop(data)
            if name == "without":  # the user's own line: ScaleLab keeps it
                with open(os.path.join(data, "postgresql.conf"), "a") as f:
                    f.write("shared_preload_libraries = 'pg_stat_statements'\n")
        if a.diagnostic == "waits":
            what = f"waits sampled from {a.waits_source}"
        else:
            what = f"the server's CPU profiled at {a.hz:g} Hz"
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
                        if a.diagnostic == "waits":
                            diagnostics = {"waits": on}
                            if on:
                                diagnostics["waits_source"] = a.waits_source
                            with_extension = on and a.waits_source == "pg_wait_sampling"
                            data = clusters["with" if with_extension else "without"]
                        else:
                            diagnostics = {"cpu_profile": on, "profile_hz": a.hz}
                            data = clusters["one"]
                        plan = {"version": 1, "target": {"data_dir": data}, "workload": workload,
                                "series": [{"label": "s"}], "clients": [c], "threads": 2, "duration": a.time,
                                "repetitions": 1, "data": {"scale": 10}, "diagnostics": diagnostics}
                        path = os.path.join(work, "plan.json")
                        with open(path, "w") as f:
                            json.dump(plan, f)
                        n += 1
                        out = os.path.join(work, f"e{n}.slab")
                        # A cluster not running is started by the sweep and stopped after it.
                        subprocess.run([a.scalelab, "sweep", path, "-o", out, "-q"], check=True, capture_output=True)
                        tps[on].append(tps_of(a.scalelab, out))
                on, off = statistics.median(tps[True]), statistics.median(tps[False])
                low, high = bootstrap_ratio(tps[True], tps[False])
                name = workload["builtin"] + (" prepared" if "mode" in workload else "")
                print(f"{name:24s} {c:7d} {on:10.1f} {off:10.1f} {on / off:7.3f}  {low:.3f} .. {high:.3f}", flush=True)
    finally:
        for data in clusters.values():
            stop(data)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
