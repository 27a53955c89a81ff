#!/usr/bin/env bash
# --metrics-listen (docs/metrics-endpoint.md) scraped by a real Prometheus (Debian's package)
# during a short sweep, then Prometheus's HTTP API asked for what it stored: the run's identity
# as labels, tps and CPU and server figures, a transactions counter that never reset, every
# scrape parsed. Also `run --metrics-listen` read directly while it runs, and a port in use
# refused before anything is created.
# Usage: metrics_endpoint_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
if ! command -v prometheus >/dev/null; then
  echo "no prometheus (scripts/install-deps installs it)"
  [[ "${CI:-}" == true ]] && exit 1
  exit 77
fi
prom_pid=
cleanup_extra() { [[ -n $prom_pid ]] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# GET a URL; prints the body.
get() { python3 - "$@" <<'PY'
import sys, urllib.request
req = urllib.request.Request(sys.argv[1], headers={"Accept": sys.argv[2]} if len(sys.argv) > 2 else {})
print(urllib.request.urlopen(req, timeout=5).read().decode())
PY
}

metrics_port=$(free_port)
prom_port=$(free_port)
cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: scalelab
    static_configs:
      - targets: ['127.0.0.1:$metrics_port']
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prom" \
  --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom_pid=$!
for _ in $(seq 100); do
  get "http://127.0.0.1:$prom_port/-/ready" >/dev/null 2>&1 && break
  sleep 0.2
done
get "http://127.0.0.1:$prom_port/-/ready" >/dev/null 2>&1 || { fail "prometheus did not start: $(tail -5 "$work/prometheus.log")"; finish metrics_endpoint; }

# A port in use (Prometheus's own): refused at once, nothing created, nothing started.
cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only"},
 "series": [{"label": "A"}],
 "clients": [1, 2], "threads": 1, "duration": 4, "repetitions": 1, "seed": 3, "data": {"scale": 1}}
JSON
expect_rc 1 "a port in use" "$scalelab" sweep "$work/plan.json" -o "$work/busy.slab" --metrics-listen "127.0.0.1:$prom_port"
grep -q -- "--metrics-listen 127.0.0.1:$prom_port: cannot listen on 127.0.0.1 port $prom_port: Address already in use" "$work/out" ||
  fail "port in use: $(cat "$work/out")"
[[ ! -e $work/busy.slab ]] || fail "a port in use must not create the experiment"
expect_rc 1 "a bad address" "$scalelab" run --data "$data" -S -c 1 -T 1 --metrics-listen "::1:9"
grep -q -- "--metrics-listen ::1:9: an IPv6 address is written \[ADDRESS\]:PORT" "$work/out" || fail "bad address: $(cat "$work/out")"
[[ ! -e $data ]] || fail "a bad --metrics-listen must not create the cluster"

# The sweep, scraped every second.
expect_rc 0 "sweep with --metrics-listen" "$scalelab" sweep "$work/plan.json" -o "$work/live.slab" --metrics-listen "$metrics_port"
grep -q "metrics for Prometheus at http://127.0.0.1:$metrics_port/metrics" "$work/out" || fail "announcement: $(cat "$work/out")"
sleep 2  # the last scrape into the head block

python3 - "http://127.0.0.1:$prom_port" <<'PY' || fail "what Prometheus stored: see above; log: $(tail -5 "$work/prometheus.log")"
import json, sys, urllib.parse, urllib.request
base = sys.argv[1]
def api(path, **params):
    url = base + path + "?" + urllib.parse.urlencode(params, doseq=True)
    j = json.loads(urllib.request.urlopen(url, timeout=5).read())
    assert j["status"] == "success", j
    return j["data"]
problems = []
def scalar(q):
    r = api("/api/v1/query", query=q)["result"]
    if not r:
        problems.append("no result for " + q)
        return float("nan")
    return float(r[0]["value"][1])
def check(cond, what):
    if not cond: problems.append(what)

series = api("/api/v1/series", **{"match[]": "scalelab_tps"})
ids = {(s.get("experiment"), s.get("series"), s.get("clients"), s.get("round")) for s in series}
check(ids == {("live", "A", "1", "1"), ("live", "A", "2", "1")}, f"tps series by run: {sorted(ids)}")
check(scalar('max_over_time(up{job="scalelab"}[5m])') == 1, "a scrape that worked")
# Every scrape that reached ScaleLab parsed: Prometheus counts samples it took.
check(scalar('max_over_time(scrape_samples_scraped{job="scalelab"}[5m])') > 50, "samples per scrape")
check(scalar('max_over_time(scalelab_tps{clients="2"}[5m])') > 0, "tps of the 2-client run")
tx = scalar('max_over_time(scalelab_transactions_total{experiment="live"}[5m])')
check(tx > 0, "transactions counted")
check(scalar('resets(scalelab_transactions_total{experiment="live"}[5m])') == 0, "the counter never reset between runs")
busy = scalar('max(max_over_time(scalelab_cpu_busy_ratio[5m]))')
check(0 < busy <= 1, f"cpu busy ratio {busy}")
check(scalar('max(max_over_time(scalelab_server_commits_per_second[5m]))') > 0, "server commits/s")
check(scalar('max(max_over_time(scalelab_process_cpu_pus{process="server"}[5m]))') > 0, "server CPU")
check(scalar('max(max_over_time(scalelab_latency_seconds{quantile="0.95"}[5m]))') > 0, "p95 latency")
check(scalar('max_over_time(scalelab_sweep_runs{experiment="live"}[5m])') == 2, "planned runs")
check(scalar('max_over_time(scalelab_sweep_runs_done{experiment="live"}[5m])') >= 1, "runs done")
check(scalar('max_over_time(scalelab_runs_finished_total{status="completed"}[5m])') >= 1, "finished runs")
check(scalar('max_over_time(scalelab_last_run_tps{clients="1",status="completed"}[5m])') > 0, "the last run's result")
meta = api("/api/v1/metadata", metric="scalelab_transactions")
check(meta.get("scalelab_transactions", [{}])[0].get("type") == "counter", f"counter metadata: {meta}")
if problems:
    print("\n".join(problems))
    for q in ('count_over_time(scalelab_tps[5m])', 'count_over_time(scalelab_cpu_busy_ratio[5m])',
              'count_over_time(scalelab_run_elapsed_seconds[5m])', 'count_over_time(up[5m])'):
        print(q, [(r["metric"].get("clients"), r["value"][1]) for r in api("/api/v1/query", query=q)["result"]])
    sys.exit(1)
print(f"prometheus stored {len(series)} tps series, {tx:.0f} transactions")
PY

# The experiment itself is whole: both runs stored, completed.
expect_rc 0 "runs" "$scalelab" runs "$work/live.slab"
[[ $(grep -c completed "$work/out") == 2 ]] || fail "both runs stored: $(cat "$work/out")"

# `run --metrics-listen`: read directly while the run runs.
run_port=$(free_port)
"$scalelab" run --data "$data" -S -c 2 -T 10 --metrics-listen "127.0.0.1:$run_port" >"$work/run.out" 2>&1 &
run_pid=$!
seen= om_seen= om=
# Both formats while the run is in progress (10 s: each ask starts a Python): asked again until both answered, since on a
# loaded machine the run may end between two requests (CI saw an empty OpenMetrics answer).
for _ in $(seq 60); do
  body=$(get "http://127.0.0.1:$run_port/metrics" 2>/dev/null) || { sleep 0.25; continue; }
  if grep -q '^scalelab_tps{clients="2"} [0-9]' <<<"$body"; then
    seen=1
    grep -q '^# TYPE scalelab_transactions_total counter' <<<"$body" || fail "run: text format by default: $body"
    om=$(get "http://127.0.0.1:$run_port/metrics" "application/openmetrics-text;version=1.0.0" 2>/dev/null) || om=
    if [[ $(tail -1 <<<"$om") == "# EOF" ]]; then om_seen=1; break; fi
  fi
  sleep 0.25
done
[[ -n $seen ]] || fail "run: no tps of the run in progress; last: $body"
[[ -n $om_seen ]] || fail "run: OpenMetrics when asked: $om"
wait "$run_pid" || fail "run --metrics-listen: exit $?: $(cat "$work/run.out")"
grep -q '^tps = ' "$work/run.out" || fail "run report: $(cat "$work/run.out")"

finish metrics_endpoint
