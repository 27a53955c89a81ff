#!/usr/bin/env bash
# What a Prometheus scrape of `--metrics-listen` costs while a sweep runs: N GETs of /metrics
# (OpenMetrics, as Prometheus asks), 5 a second, during a select-only sweep of 2 clients on the
# embedded server; prints the median, 95th percentile and maximum time per scrape (curl's
# time_total: connection included) and the body sizes seen.
# Usage: bench/metrics_scrape.sh PATH/TO/scalelab [N]
set -euo pipefail
scalelab=$1
n=${2:-40}
work=$(mktemp -d /tmp/scalelab-scrape-XXXXXX)
chmod 755 "$work"
trap '"$scalelab" server stop --data "$work/data" >/dev/null 2>&1; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$work/data"}, "workload": {"builtin": "select-only"},
 "series": [{"label": "A"}], "clients": [2], "threads": 1, "duration": $((n / 5 + 10)), "repetitions": 1,
 "data": {"scale": 1}}
JSON
"$scalelab" sweep "$work/plan.json" -o "$work/x.slab" --metrics-listen "$port" -q 2>"$work/sweep.err" &
sweep=$!
until curl -s "http://127.0.0.1:$port/metrics" | grep -q '^scalelab_tps'; do sleep 0.2; done
for _ in $(seq "$n"); do
  curl -s -o /dev/null -w '%{time_total} %{size_download}\n' -H 'Accept: application/openmetrics-text;version=1.0.0' \
    "http://127.0.0.1:$port/metrics"
  sleep 0.2
done >"$work/times"
curl -s -o /dev/null -w '%{size_download}\n' "http://127.0.0.1:$port/metrics" >/dev/null
wait "$sweep"
python3 - "$work/times" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
t = sorted(float(r[0]) * 1000 for r in rows)
sizes = sorted({int(r[1]) for r in rows})
print(f"{len(t)} scrapes during a run: median {statistics.median(t):.1f} ms, "
      f"p95 {t[max(0, int(len(t) * 0.95) - 1)]:.1f} ms, max {t[-1]:.1f} ms; bodies {sizes[0]} to {sizes[-1]} bytes")
PY
