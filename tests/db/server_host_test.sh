#!/usr/bin/env bash
# The embedded server on a server host (target.host, docs/hosts.md): ScaleLab's agent there
# initdbs, starts, sets and restarts it; this machine's clients reach it over TCP with the
# superuser's password (scram-sha-256), which never appears in a plan, a command line or a
# record; the agent reads that machine's CPU and the server's processes. The host here is
# reached through a real sshd on 127.0.0.1 (started here, throwaway keys). A postmaster killed
# on the host mid-sweep is started again and its run runs again; an agent of another version is
# refused with both versions named. A series' placement binds the server on the host (its
# agent applies and verifies it); one the host cannot apply is refused before any run, in the
# host's words; `separate` is refused (the clients run here).
# Usage: server_host_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
require_sshd
me=$(hostname)

# Refused before anything starts.
cat >"$work/bad.json" <<JSON
{"version": 1, "target": {"host": "db1", "conninfo": "host=db1"}, "workload": {"builtin": ["select-only"]},
 "series": [{"label": "A"}], "clients": [1], "duration": 1}
JSON
expect_rc 1 "target.host with a conninfo" "$scalelab" sweep "$work/bad.json" -o "$work/bad.slab"
grep -q '\$.target.host: runs ScaleLab.s embedded server on that machine' "$work/out" || fail "conninfo refusal: $(cat "$work/out")"
cat >"$work/bad.json" <<JSON
{"version": 1, "target": {"host": "db1"}, "workload": {"builtin": ["select-only"]},
 "series": [{"label": "A", "placement": "cores:1", "separate": true}], "clients": [1], "duration": 1}
JSON
expect_rc 1 "target.host with a separate placement" "$scalelab" sweep "$work/bad.json" -o "$work/bad.slab"
grep -q '\$.series\[0\].separate: separate keeps the load generator off' "$work/out" || fail "separate refusal: $(cat "$work/out")"

start_test_sshd
host_target='{"host": "127.0.0.1", "ssh_command": "'$ssh_command'", "scalelab": "'$scalelab'"}'

# A placement the host cannot apply is refused by the host before any run, and no file is left.
refused_on_host() { # NAME SERIES-JSON PATTERN
  cat >"$work/bad.json" <<JSON
{"version": 1, "target": {"host": $host_target, "data_dir": "$work/never"}, "workload": {"builtin": ["select-only"]},
 "series": [$2], "clients": [1], "duration": 1}
JSON
  expect_rc 1 "$1" "$scalelab" sweep "$work/bad.json" -o "$work/bad.slab"
  grep -q -- "$3" "$work/out" || fail "$1: $(cat "$work/out")"
  [[ ! -e $work/bad.slab && ! -e $work/never ]] || fail "$1 left a file or started a server"
}
refused_on_host "more cores than the host has" '{"label": "A", "placement": "cores:4096"}' \
  '\$.series\[0\].placement: server host 127.0.0.1: placement cores:4096 asks for 4096 cores'
# Where SMT cannot be switched (no SMT, or no control), the real switch is refused in the host's words.
smt_control=$(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo absent)
if [[ $smt_control != on && $smt_control != off ]]; then
  refused_on_host "real SMT where the host cannot switch it" '{"label": "A", "placement": "smt-off", "real_smt": true}' \
    '\$.series\[0\].real_smt: cannot switch SMT for real on server host 127.0.0.1: '
fi
# The agent's environment comes from sshd, not from this shell: the data directory is named.
host_data=$work/host-cluster

# A sweep whose postmaster is killed on the host during its second run: a watcher reads the
# postmaster's pid from the data directory when the second run's progress line appears.
cat >"$work/plan.json" <<JSON
{"version": 1,
 "target": {"host": $host_target, "data_dir": "$host_data", "settings": {"work_mem": "8MB"}},
 "workload": {"builtin": ["select-only"]}, "data": {"scale": 1},
 "series": [{"label": "A", "placement": "cores:1"}, {"label": "B", "settings": {"work_mem": "16MB"}}],
 "clients": [1, 2], "duration": 2, "repetitions": 1, "retries": 2}
JSON
( for _ in $(seq 600); do
    if grep -q 'run 2/' "$work/out" 2>/dev/null && [[ -s $host_data/postmaster.pid ]]; then
      sleep 1; kill -9 "$(head -1 "$host_data/postmaster.pid")"; echo killed >"$work/killed"; break
    fi
    sleep 0.2
  done ) &
watcher=$!
expect_rc 0 "sweep on a server host" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab"
wait "$watcher"
[[ -e $work/killed ]] || fail "the watcher never killed the postmaster: $(cat "$work/out")"
grep -q "server host 127.0.0.1: starting PostgreSQL" "$work/out" || fail "the start through the agent: $(cat "$work/out")"
grep -q "CPU, disk and pressure figures are from 127.0.0.1 \\[$me\\] (server" "$work/out" || fail "metrics from the agent: $(cat "$work/out")"
grep -q "on server host 127.0.0.1 died" "$work/out" || fail "the kill noticed: $(cat "$work/out")"
grep -q "runs again at the end of the sweep" "$work/out" || fail "the run retried: $(cat "$work/out")"
if grep -rq "$(cut -d: -f5 "$host_data/scalelab.pgpass" | head -1)" "$work/e.slab" "$work/out"; then
  fail "the superuser's password reached the record or the output"
fi
expect_rc 0 "export" "$scalelab" export "$work/e.slab" --csv "$work/csv" --json "$work/e.json"
python3 - "$work/e.json" "$work/csv/runs.csv" "$me" <<'PY' || fail "records: $(head -c 3000 "$work/e.json")"
import csv, json, sys
e = json.load(open(sys.argv[1]))
machine = e["provenance"][0]["server_machine"]
assert machine["server_host"] == "127.0.0.1", machine
rows = list(csv.DictReader(open(sys.argv[2])))
done = [r for r in rows if r["status"] == "completed"]
assert len(done) == 4, rows
assert all(r["metrics_machine"].startswith("127.0.0.1 [%s] (server" % sys.argv[3]) for r in done), rows
assert all(r["server_cpu_pct"] for r in done), rows
failed = [r for r in rows if r["status"] == "failed"]
assert failed and all("on server host 127.0.0.1" in r["error"] for r in failed), rows
# Series A's server was bound on the host to its first core's first PU, and bound back after.
placed = [r["detail"]["placement"] for r in e["runs"] if r["series"] == "A" and r["status"] == "completed"]
assert placed and all(p["server_host"] == "127.0.0.1" and p["server_pus"] == "0" and p["scenario"] == "cores:1"
                      and p["method"] == "emulated by binding" and p["client_pus"] for p in placed), placed
unplaced = [r["detail"]["placement"] for r in e["runs"] if r["series"] == "B"]
assert unplaced and all("server_host" not in p for p in unplaced), unplaced
settings = e["provenance"][0]["server"]["non_default_settings"]
assert settings["listen_addresses"]["value"] == "*", settings.get("listen_addresses")
PY
# The agent stops the server it started when the sweep ends.
[[ ! -s $host_data/postmaster.pid ]] || ! kill -0 "$(head -1 "$host_data/postmaster.pid")" 2>/dev/null ||
  fail "the server host's server still runs after the sweep"
grep -q '^host all all all scram-sha-256' "$host_data/pg_hba.conf" || fail "pg_hba.conf: $(cat "$host_data/pg_hba.conf")"

# Clients elsewhere: the server host's server reached from a load host (through the same sshd),
# which gets the password over its agent's channel for the run, never in a file of ours or the output.
# The server's CPU is profiled by the agent on the host (perf there), where perf is installed.
profile=false
command -v perf >/dev/null && profile=true
cat >"$work/hosts.json" <<JSON
{"version": 1, "target": {"host": $host_target, "data_dir": "$host_data"},
 "load_hosts": {"hosts": ["127.0.0.1"], "ssh_command": "$ssh_command", "scalelab": "$scalelab"},
 "workload": {"builtin": ["select-only"]}, "data": {"scale": 1}, "diagnostics": {"cpu_profile": $profile},
 "series": [{"label": "A", "placement": "cores:1"}], "clients": [2], "duration": 2, "repetitions": 1}
JSON
expect_rc 0 "sweep on a server host with a load host" "$scalelab" sweep "$work/hosts.json" -o "$work/h.slab"
if [[ $profile == true ]]; then
  grep -q "CPU profile: perf record at 99 Hz on 127.0.0.1, by ScaleLab's agent there" "$work/out" ||
    fail "the host's profile is not said: $(cat "$work/out")"
  expect_rc 0 "export --folded of the host's profile" "$scalelab" export "$work/h.slab" --folded "$work/folded"
  grep -q '^client backend;' "$work/folded/A-2-clients.folded" ||
    fail "the host's profile has no client backend stacks: $(head -3 "$work/folded/A-2-clients.folded")"
elif [[ ${CI:-} == true ]]; then
  fail "perf is not installed: the server host's CPU profile is not tested"
fi
if grep -rq "$(cut -d: -f5 "$host_data/scalelab.pgpass" | head -1)" "$work/h.slab" "$work/out"; then
  fail "the superuser's password reached the record or the output (load hosts)"
fi
expect_rc 0 "export (load hosts)" "$scalelab" export "$work/h.slab" --json "$work/h.json"
python3 - "$work/h.json" <<'PY' || fail "load-host records: $(head -c 3000 "$work/h.json")"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 1 and runs[0]["status"] == "completed" and runs[0]["tps"] > 0, runs
d = runs[0]["detail"]
assert [h["host"] for h in d["load_hosts"]] == ["127.0.0.1"], d["load_hosts"]
assert d["placement"]["server_host"] == "127.0.0.1" and d["placement"]["server_pus"] == "0", d["placement"]
PY

# An agent of another version: refused with both versions named.
cat >"$work/old-ssh" <<'SH'
#!/bin/sh
read -r job
echo '{"hello":{"version":"0.0.1","host":"old","protocol":2}}'
sleep 5
SH
chmod +x "$work/old-ssh"
cat >"$work/old.json" <<JSON
{"version": 1, "target": {"host": {"host": "db1", "ssh_command": "$work/old-ssh"}},
 "workload": {"builtin": ["select-only"]}, "series": [{"label": "A"}], "clients": [1], "duration": 1}
JSON
expect_rc 1 "an agent of another version" "$scalelab" sweep "$work/old.json" -o "$work/old.slab"
grep -q "server host db1: runs ScaleLab 0.0.1, this is $("$scalelab" --version | head -1 | awk '{print $2}')" "$work/out" ||
  fail "version refusal: $(cat "$work/out")"

finish server_host
