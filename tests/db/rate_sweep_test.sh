#!/usr/bin/env bash
# Offered-load and data-size sweeps (issue 35): a plan with a list of rates runs each at every
# client count, keeps each run's rate, flags the rate the server could not reach, and report,
# runs and export put the points on the rate axis; a list of scales builds the data at each,
# once, and the points go on the scale axis. A real server, real runs.
# Usage: rate_sweep_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server

# 40 tps is easy for two clients; 5,000,000 tps no server here reaches: the knee.
cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only", "rate": [40, 5000000]},
 "series": [{"label": "A"}, {"label": "B", "settings": {"work_mem": "2MB"}}],
 "clients": [2], "threads": 1, "duration": 2, "repetitions": 2, "seed": 5, "data": {"scale": 1}}
JSON
expect_rc 0 "a sweep over two rates" "$scalelab" sweep "$work/plan.json" -o "$work/r.slab"
grep -q "A at 2 clients, round [12]: below the offered rate: offered 5000000 tps" "$work/out" || fail "no below-rate note: $(cat "$work/out")"

# runs: each run's offered rate.
"$scalelab" runs "$work/r.slab" >"$work/runs" 2>&1
[[ $(grep -c "completed" "$work/runs") == 8 ]] || fail "completed runs: $(cat "$work/runs")"
head -1 "$work/runs" | grep -q "offered" || fail "runs has no offered column: $(head -1 "$work/runs")"
[[ $(grep -c " 40 " "$work/runs") == 4 && $(grep -c " 5000000 " "$work/runs") == 4 ]] || fail "offered rates: $(cat "$work/runs")"
grep " 5000000 " "$work/runs" | grep -vq "below-rate" && fail "a run at 5,000,000 tps not flagged below-rate: $(cat "$work/runs")"
grep " 40 " "$work/runs" | grep -q "below-rate" && fail "a run at 40 tps flagged below-rate: $(cat "$work/runs")"

# report: one client count, two rates: the rate axis unasked, comparisons per rate.
expect_rc 0 "report" "$scalelab" report "$work/r.slab" --compare A B
grep -Eq "^series +rate " "$work/out" || fail "report's x column: $(cat "$work/out")"
grep -Eq "^A +40 +2 " "$work/out" || fail "report's point A at 40: $(cat "$work/out")"
grep -Eq "^A +5000000 +2 " "$work/out" || fail "report's point A at 5000000: $(cat "$work/out")"
grep -q "tps offered" "$work/out" || fail "the verdict names no offered rate: $(cat "$work/out")"
grep -q "client count" "$work/out" && fail "the rate axis report speaks of client counts: $(cat "$work/out")"
# On the client axis each rate is a curve of its own.
expect_rc 0 "report --x clients" "$scalelab" report "$work/r.slab" --x clients
grep -Eq "^A, 40 tps offered +2 +2 " "$work/out" || fail "report --x clients: $(cat "$work/out")"
expect_rc 1 "--usl on the rate axis" "$scalelab" report "$work/r.slab" --usl
grep -q "describe scaling with clients" "$work/out" || fail "--usl refusal: $(cat "$work/out")"
expect_rc 0 "statements by rate" "$scalelab" report "$work/r.slab" --statements --compare A B
grep -q "B against A, 40 tps offered" "$work/out" || fail "statements at a rate: $(cat "$work/out")"
expect_rc 0 "statements at one rate" "$scalelab" report "$work/r.slab" --statements --clients 40
grep -q "A, 40 tps offered:" "$work/out" || fail "statements --clients 40: $(cat "$work/out")"
grep -q "5000000 tps offered" "$work/out" && fail "statements --clients 40 shows another rate: $(cat "$work/out")"

# export: the offered rate in every CSV, and the chart and HTML report on the rate axis.
expect_rc 0 "export" "$scalelab" export "$work/r.slab" --csv "$work/csv" --png "$work/rate.png" --html "$work/r.html" --json "$work/r.json"
python3 - "$work" <<'PY' || fail "export files"
import csv, json, sys
d = sys.argv[1]
runs = list(csv.DictReader(open(d + "/csv/runs.csv")))
assert sorted({float(r["rate"]) for r in runs}) == [40, 5000000], [r["rate"] for r in runs]
points = [p for p in csv.DictReader(open(d + "/csv/points.csv")) if p["metric"] == "tps"]
assert sorted((p["series"], float(p["rate"]), p["n"]) for p in points) == [
    ("A", 40, "2"), ("A", 5000000, "2"), ("B", 40, "2"), ("B", 5000000, "2")], points
low = [float(p["mean"]) for p in points if float(p["rate"]) == 40]
assert all(20 < m < 60 for m in low), low   # Poisson arrivals at 40 tps over 2 s
pct = [p for p in csv.DictReader(open(d + "/csv/latency-percentiles.csv")) if p["scope"] == "point"]
assert {float(p["rate"]) for p in pct} == {40, 5000000}, pct
j = json.load(open(d + "/r.json"))
assert sorted({r["rate"] for r in j["runs"]}) == [40, 5000000]
html = open(d + "/r.html").read()
assert "Offered tps" in html and "by offered rate" in html and "at 40 tps offered" in html, "html"
PY
[[ -s $work/rate.png ]] || fail "no PNG"
python3 - "$work" <<'PY' || fail "latency-throughput.csv"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/csv/latency-throughput.csv")) if r["percentile"] == "p99"]
assert len(rows) == 4, rows
for r in rows:
    knee = float(r["rate"]) == 5000000
    assert r["runs_below_rate"] == (r["runs"] if knee else "0"), r   # every run at the knee, none below it
    assert float(r["latency_ms_mean"]) > 0 and float(r["tps_mean"]) > 0, r
PY
# Latency against achieved tps, as a chart: the knee marked, the points labelled with their rate.
expect_rc 0 "export --latency-tps" "$scalelab" export "$work/r.slab" --svg "$work/lt.svg" --latency-tps p99 --log-latency
grep -q "against achieved tps" "$work/lt.svg" || fail "latency-tps SVG title"
grep -q "below the offered rate" "$work/lt.svg" || fail "latency-tps SVG has no knee: $(grep -o 'A: [^<]*' "$work/lt.svg" | head)"
grep -q ">5000000<" "$work/lt.svg" || fail "latency-tps SVG has no rate label"
expect_rc 2 "--latency-tps with --metric" "$scalelab" export "$work/r.slab" --png "$work/x.png" --latency-tps p99 --metric latency_p95
grep -q "p99 latency against achieved tps" "$work/r.html" || fail "the HTML report has no latency-tps chart"
# Achieved tps as the x of another y: the server's CPU of each point, labelled with its rate.
expect_rc 0 "export --against-tps" "$scalelab" export "$work/r.slab" --svg "$work/cpu.svg" --against-tps server_cpu
grep -q "server CPU against achieved tps" "$work/cpu.svg" || fail "against-tps SVG title"
grep -q "server CPU (% of one PU)" "$work/cpu.svg" || fail "against-tps SVG y axis"
grep -q ">5000000<" "$work/cpu.svg" || fail "against-tps SVG has no rate label"
expect_rc 2 "--against-tps tps" "$scalelab" export "$work/r.slab" --svg "$work/x.svg" --against-tps tps
grep -q "'tps' cannot be drawn against achieved tps (p50, " "$work/out" || fail "against-tps tps: $(cat "$work/out")"
expect_rc 2 "--against-tps with --latency-tps" "$scalelab" export "$work/r.slab" --svg "$work/x.svg" --against-tps cpu_busy \
  --latency-tps p99
# Data-size sweep: the tables of the sweep above (scale 1) kept for the scale-1 runs, rebuilt once
# at scale 2 for the rest; each run says its scale, the first at scale 2 the build's time.
cat >"$work/scales.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only"},
 "series": [{"label": "A"}, {"label": "B", "settings": {"work_mem": "2MB"}}],
 "clients": [2], "threads": 1, "duration": 1, "repetitions": 2, "seed": 5, "data": {"scale": [2, 1]}}
JSON
expect_rc 0 "a sweep over two scales" "$scalelab" sweep "$work/scales.json" -o "$work/s.slab"
[[ $(grep -c "pgbench tables at scale 2 built in" "$work/out") == 1 && $(grep -c "built in" "$work/out") == 1 ]] ||
  fail "one build, at scale 2: $(cat "$work/out")"
grep -q "rebuilding them at scale 2" "$work/out" || fail "no rebuild at scale 2: $(cat "$work/out")"
expect_rc 0 "report by scale" "$scalelab" report "$work/s.slab" --compare A B
grep -Eq "^series +scale " "$work/out" || fail "report's x column: $(cat "$work/out")"
grep -Eq "^A +2 +2 " "$work/out" || fail "report's point A at scale 2: $(cat "$work/out")"
expect_rc 0 "export by scale" "$scalelab" export "$work/s.slab" --csv "$work/scsv"
python3 - "$work" <<'PY' || fail "scale export"
import csv, sys
d = sys.argv[1]
runs = list(csv.DictReader(open(d + "/scsv/runs.csv")))
assert [r["scale"] for r in runs] == ["1"] * 4 + ["2"] * 4, [r["scale"] for r in runs]   # scale by scale
points = [p for p in csv.DictReader(open(d + "/scsv/points.csv")) if p["metric"] == "tps"]
assert sorted((p["series"], p["scale"], p["n"]) for p in points) == [
    ("A", "1", "2"), ("A", "2", "2"), ("B", "1", "2"), ("B", "2", "2")], points
PY
# Adaptive rounds over the grid: a target no run reaches adds one round of every point (the
# limit), starting at the scale the planned rounds ended on, so the data is not rebuilt for it.
cat >"$work/adaptive.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only", "rate": [30, 60]},
 "series": [{"label": "A"}, {"label": "B", "settings": {"work_mem": "2MB"}}],
 "clients": [2], "threads": 1, "duration": 1, "repetitions": 2, "seed": 5, "data": {"scale": [1, 2]},
 "precision": {"target": 0.01, "max_repetitions": 3, "compare": ["A", "B"]}}
JSON
expect_rc 0 "an adaptive sweep over rates and scales" "$scalelab" sweep "$work/adaptive.json" -o "$work/a.slab"
grep -q "round 3 added by the precision rule, 8 runs:" "$work/out" || fail "no added round of 8: $(cat "$work/out")"
grep -q "A at 2 clients, 30 tps offered, scale 2 (2 so far): " "$work/out" || fail "the added round's points: $(cat "$work/out")"
grep -q "B at 2 clients, 60 tps offered, scale 1: 3 rounds, the precision rule's limit, and still .*, target +/-0.01%" "$work/out" ||
  fail "no point said short at the limit: $(cat "$work/out")"
# Built at 1 (the tables above are at 2), at 2, and at 1 again halfway through the added round.
[[ $(grep -c "built in" "$work/out") == 3 ]] || fail "the data built other than once per change of scale: $(cat "$work/out")"
# One client count: the verdicts are on the rate axis, one per scale, as `report` gives them.
grep -q 'as `scalelab report --x rate --compare "A, scale 1" "B, scale 1"` says it' "$work/out" ||
  fail "no verdict per curve at the end: $(cat "$work/out")"
expect_rc 0 "export the adaptive sweep" "$scalelab" export "$work/a.slab" --csv "$work/acsv"
python3 - "$work" <<'PY' || fail "adaptive grid runs"
import csv, sys
runs = [r for r in csv.DictReader(open(sys.argv[1] + "/acsv/runs.csv")) if r["status"] == "completed"]
assert len(runs) == 24, len(runs)
extra = [r for r in runs if r["repetition"] == "3"]
assert sorted((r["series"], float(r["rate"]), r["scale"]) for r in extra) == sorted(
    (s, rate, scale) for s in "AB" for rate in (30.0, 60.0) for scale in "12"), extra
assert [r["scale"] for r in extra] == ["2"] * 4 + ["1"] * 4, [r["scale"] for r in extra]   # from where the plan ended
PY
finish rate_sweep
