#!/usr/bin/env bash
# The server's machine measured where it runs (docs/hosts.md): `run --metrics-host` and a plan's
# target.metrics_host read the CPU, disks, pressure and the server's processes through ScaleLab's
# agent, and every CPU figure says which machine it is of. "Another machine" is a PID namespace of
# its own (unshare, root): the server's backends are not there, as on a machine that is not the
# server's. A stand-in for ssh starts the agent there, one that passes a few lines loses it
# mid-sweep, and one that answers as ScaleLab 0.0.1 is refused with both versions named.
# Usage: metrics_host_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
if [[ $(id -u) != 0 ]] || ! unshare --pid --fork --mount-proc true 2>/dev/null; then
  echo "needs root and unshare for a PID namespace (another machine's /proc)"
  [[ "${CI:-}" == true ]] && exit 1
  exit 77
fi

expect_rc 2 "--metrics-host with the embedded server" "$scalelab" run --data "$data" -S -c 1 -t 1 --metrics-host db1
grep -q 'is for a server of yours on another machine' "$work/out" || fail "embedded refusal: $(cat "$work/out")"
[[ ! -e $data ]] || fail "a usage error must not create the cluster"

# Issue 60.8: a host or remote program that ssh would read as an option is refused, as in a
# plan, before anything runs (ssh -oProxyCommand=... runs its command here).
bad="-oProxyCommand=touch $work/proxied"
for args in "--metrics-host=$bad" "--metrics-host=db1|--load-hosts=$bad" "--metrics-host=db1|--remote-scalelab=$bad"; do
  IFS='|' read -ra opts <<<"$args"
  expect_rc 2 "$args" "$scalelab" run --conninfo "host=/nonexistent" -S -c 1 -t 1 "${opts[@]}"
  grep -q "starts with '-': ssh would read it as an option" "$work/out" || fail "$args: $(cat "$work/out")"
done
[[ ! -e $work/proxied ]] || fail "a host name ran a command through ssh"

expect_rc 0 "server start" "$scalelab" server start --data "$data"
conninfo=$("$scalelab" server status --data "$data" --conninfo)
expect_rc 0 "init" "$scalelab" init --conninfo "$conninfo" -s 1 -q
me=$(hostname)

# The server is here: told by its backend, without a metrics host; its processes' CPU measured.
expect_rc 0 "a server of the user's on this machine" "$scalelab" run --conninfo "$conninfo" -S -c 2 -T 2
grep -qx "machine: $me (server and load generator)" "$work/out" || fail "local server: $(cat "$work/out")"
grep -q '^CPU: load generator .*, server [0-9.]*%' "$work/out" || fail "local server CPU: $(cat "$work/out")"

# Seen from another machine (a PID namespace): the CPU is the load generator's, never the server's.
expect_rc 0 "ScaleLab where the server's backends are not" unshare --pid --fork --mount-proc "$scalelab" run --conninfo "$conninfo" -S -c 2 -T 2
grep -qx "machine: $me (load generator, not the server)" "$work/out" || fail "elsewhere: $(cat "$work/out")"
grep -q "the server's backend [0-9]* is not here (no process [0-9]*): the server runs elsewhere" "$work/out" ||
  fail "why not the server's: $(cat "$work/out")"
grep -q '^CPU: load generator [0-9.]*% (100% = one PU)' "$work/out" || fail "no server CPU elsewhere: $(cat "$work/out")"

# The metrics host: the agent on the server's machine ("local"), and on one that is not.
expect_rc 0 "--metrics-host local" "$scalelab" run --conninfo "$conninfo" -S -c 2 -T 2 --metrics-host local --json
python3 - "$work/out" <<'PY' || fail "metrics host local json: $(cat "$work/out")"
import json, sys
text = open(sys.argv[1]).read()
j = json.loads(text[text.index("{"):])
m = j["metrics_machine"]
assert m["host"] == "local" and m["server"] and m["load_generator"], m
assert j["system"]["server_cpu_pct"] > 0, j["system"]
assert j["system"]["cpu"]["idle"] < 100, j["system"]["cpu"]
PY
cat >"$work/ns-ssh" <<'SH'
#!/bin/sh
# A stand-in for ssh: the host name is dropped, the command runs in a PID namespace of its own.
shift
exec unshare --pid --fork --mount-proc "$@"
SH
chmod +x "$work/ns-ssh"
expect_rc 0 "a metrics host without the server" "$scalelab" run --conninfo "$conninfo" -S -c 2 -T 2 --metrics-host db1 \
  --ssh-command "$work/ns-ssh" --remote-scalelab "$scalelab"
grep -qx "machine: db1 \[$me\] (neither the server nor the clients)" "$work/out" || fail "metrics host elsewhere: $(cat "$work/out")"
grep -q "is not there (no process" "$work/out" || fail "metrics host why: $(cat "$work/out")"

# With load hosts: the clients elsewhere ("local" among them: here too), the server's machine
# read by the metrics host over the whole run.
expect_rc 0 "load hosts and a metrics host" "$scalelab" run --conninfo "$conninfo" -S -c 4 -j 2 -T 2 \
  --load-hosts local,local --metrics-host local
grep -qx "machine: $me (server and load generator)" "$work/out" || fail "load hosts + metrics host: $(cat "$work/out")"
grep -q '^CPU: server [0-9.]*% (100% = one PU)' "$work/out" || fail "load hosts: server CPU, no load generator here: $(cat "$work/out")"
grep -q '^load host local' "$work/out" || fail "load hosts report: $(cat "$work/out")"

cat >"$work/old-ssh" <<'SH'
#!/bin/sh
read -r job
echo '{"hello":{"version":"0.0.1","host":"old","protocol":2}}'
sleep 5
SH
chmod +x "$work/old-ssh"
expect_rc 1 "an agent of another version" "$scalelab" run --conninfo "$conninfo" -S -c 1 -T 1 --metrics-host db1 --ssh-command "$work/old-ssh"
grep -q "metrics host db1: runs ScaleLab 0.0.1, this is $("$scalelab" --version | head -1 | awk '{print $2}')" "$work/out" ||
  fail "version refusal: $(cat "$work/out")"
# Issue 60.4 and 60.10: a hello nested 200,000 levels deep overflowed the stack; a hello of
# another shape gave nlohmann's words without the host. Both name the host and fail the run.
python3 -c 'print("{\"hello\":" + "[" * 200000 + "]" * 200000 + "}")' >"$work/deep-hello"
printf '#!/bin/sh\nread -r job\ncat %s\nsleep 5\n' "$work/deep-hello" >"$work/deep-ssh"
printf '#!/bin/sh\nread -r job\necho %s\nsleep 5\n' "'{\"hello\":\"yes\"}'" >"$work/odd-ssh"
chmod +x "$work/deep-ssh" "$work/odd-ssh"
expect_rc 1 "a hello nested too deep" "$scalelab" run --conninfo "$conninfo" -S -c 1 -T 1 --metrics-host db1 --ssh-command "$work/deep-ssh"
grep -q "metrics host db1: sent JSON nested deeper than 100 levels" "$work/out" || fail "deep hello: $(head -c 500 "$work/out")"
expect_rc 1 "a hello of another shape" "$scalelab" run --conninfo "$conninfo" -S -c 1 -T 1 --metrics-host db1 --ssh-command "$work/odd-ssh"
grep -q 'metrics host db1: answered with something else than hello: {"hello":"yes"}' "$work/out" || fail "odd hello: $(cat "$work/out")"
expect_rc 1 "no ssh" "$scalelab" run --conninfo "$conninfo" -S -c 1 -T 1 --metrics-host db1 --ssh-command "$work/no-such-ssh"
grep -q "metrics host db1: cannot start" "$work/out" || fail "no ssh: $(cat "$work/out")"

# A sweep with a metrics host that is lost after a few answers: the run it was measuring fails
# in its words and runs again at the end with a new agent; every run names its machine; the
# provenance keeps the metrics host's machine.
cat >"$work/short-ssh" <<'SH'
#!/bin/sh
# A stand-in for ssh whose connection breaks after 8 lines (hello, server, six readings).
shift
n=0
while [ $n -lt 8 ] && IFS= read -r line; do printf '%s\n' "$line"; n=$((n + 1)); done | "$@"
SH
chmod +x "$work/short-ssh"
cat >"$work/plan.json" <<JSON
{"version": 1,
 "target": {"conninfo": "$conninfo",
            "metrics_host": {"host": "db1", "ssh_command": "$work/short-ssh", "scalelab": "$scalelab"}},
 "workload": {"builtin": ["select-only"]},
 "series": [{"label": "A"}], "clients": [1, 2], "duration": 2, "repetitions": 2, "retries": 6}
JSON
expect_rc 0 "sweep with a metrics host" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab"
grep -q "CPU, disk and pressure figures are from db1 \\[$me\\] (server)" "$work/out" || fail "sweep note: $(cat "$work/out")"
grep -q "failed: the run completed, but metrics host db1: disconnected" "$work/out" || fail "lost metrics host: $(cat "$work/out")"
expect_rc 0 "export" "$scalelab" export "$work/e.slab" --csv "$work/csv" --html "$work/report.html" --json "$work/e.json"
python3 - "$work/e.json" <<'PY' || fail "the metrics host's machine in the provenance: $(head -c 2000 "$work/e.json")"
import json, sys
e = json.load(open(sys.argv[1]))
machine = e["provenance"][0]["server_machine"]
assert machine["metrics_host"] == "db1", machine
assert sum(len(pus) for _, pus in machine["core_pus"]) == machine["pus"], machine  # its PUs, core by core
PY
python3 - "$work/csv/runs.csv" <<PY || fail "runs.csv: $(cat "$work/csv/runs.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
done = [r for r in rows if r["status"] == "completed"]
assert len(done) == 4, rows
assert all(r["metrics_machine"] == "db1 [$me] (server)" for r in done), rows
assert all(r["server_cpu_pct"] for r in done), rows
failed = [r for r in rows if r["status"] == "failed"]
assert failed and all("metrics host db1" in r["error"] for r in failed), rows
PY
grep -q "CPU and disk figures of" "$work/report.html" || fail "report names the machine"
grep -q "Server machine db1" "$work/report.html" || fail "report has the metrics host's provenance"
"$scalelab" report "$work/e.slab" --metric cpu_busy >"$work/report.txt" 2>&1 || fail "report cpu_busy: $(cat "$work/report.txt")"
grep -qx "machine: db1 \\[$me\\] (server)" "$work/report.txt" || fail "text report machine: $(cat "$work/report.txt")"

finish metrics_host
