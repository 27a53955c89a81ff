#!/usr/bin/env bash
# `scalelab run --load-hosts` as a user types it, one host reached through a real sshd on
# 127.0.0.1 (started here, with throwaway keys) and one "local": the two hosts give the totals
# of one process, every client keeps its number, the report names both hosts; a host that
# does not answer fails the run with the host and ssh's words. Needs Debian's openssh-server
# (scripts/install-deps installs it): missing, the test skips, except under CI=true.
# Usage: load_hosts_ssh_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
require_sshd

# Refused before anything starts.
expect_rc 2 "--load-hosts with --placement" "$scalelab" run --data "$data" -c 2 -t 1 --load-hosts local,local --placement smt-off
grep -q 'with --load-hosts the clients run elsewhere' "$work/out" || fail "placement refusal: $(cat "$work/out")"
expect_rc 2 "--load-hosts with -l" "$scalelab" run --data "$data" -c 2 -t 1 --load-hosts local,local -l
[[ ! -e $data ]] || fail "a usage error must not create the cluster"

expect_rc 0 "server start" "$scalelab" server start --data "$data"
conninfo=$("$scalelab" server status --data "$data" --conninfo)
q() { psql "$conninfo" -XAtc "$1" 2>&1; }
q "create table hits (client int not null)" >/dev/null
echo 'INSERT INTO hits VALUES (:client_id);' >"$work/hits.sql"
expect_rc 2 "a remote host with the embedded server's socket" "$scalelab" run --data "$data" -f "$work/hits.sql" -c 2 -t 1 -n \
  --load-hosts local,bench@client1
grep -q 'the embedded server listens on this machine only' "$work/out" || fail "embedded refusal: $(cat "$work/out")"

start_test_sshd
remote="$(id -un)@127.0.0.1"
$ssh_command "$remote" true || fail "ssh to the throwaway sshd: $(cat "$ssh_dir/sshd.log")"

expect_rc 0 "two load hosts, one through ssh" "$scalelab" run --conninfo "$conninfo" -f "$work/hits.sql" -c 6 -j 2 -t 20 -n \
  --load-hosts "local,$remote" --ssh-command "$ssh_command" --remote-scalelab "$scalelab"
for line in 'number of clients: 6' 'number of transactions actually processed: 120' 'status: completed' \
            'load host local' "load host $remote" 'coordinator: '; do
  grep -qF "$line" "$work/out" || fail "report lacks '$line': $(cat "$work/out")"
done
[[ $(q "select count(*) from hits") == 120 ]] || fail "rows: $(q "select count(*) from hits")"
[[ $(q "select count(distinct client) || ' ' || min(client) || ' ' || max(client) from hits") == "6 0 5" ]] ||
  fail "client numbers: $(q "select client, count(*) from hits group by client")"
[[ $(q "select count(*) from (select client from hits group by client having count(*) = 20) c") == 6 ]] ||
  fail "20 transactions per client: $(q "select client, count(*) from hits group by client")"

# --json carries the merged figures and each host's.
"$scalelab" run --conninfo "$conninfo" -f "$work/hits.sql" -c 4 -j 2 -T 2 -n --json \
  --load-hosts "$remote,local" --ssh-command "$ssh_command" --remote-scalelab "$scalelab" >"$work/run.json" 2>"$work/err" ||
  fail "json run: $(cat "$work/err")"
python3 - "$work/run.json" <<'PY' || fail "json: $(cat "$work/run.json" | head -c 2000)"
import json, sys
r = json.load(open(sys.argv[1]))
hosts = r["load_hosts"]
assert len(hosts) == 2, hosts
assert sum(h["transactions"] for h in hosts) == r["transactions"], (hosts, r["transactions"])
assert r["clients"] == 4 and r["latency"]["count"] == r["transactions"], r
assert all(h["cpu_busy_pct"] is not None for h in hosts), hosts
assert r["samples"], "merged samples"
PY

# A host that does not answer: the run fails naming it, with ssh's words.
expect_rc 1 "a host that does not answer" "$scalelab" run --conninfo "$conninfo" -f "$work/hits.sql" -c 2 -t 1 -n \
  --load-hosts "local,$remote" --ssh-command "ssh -p 1 -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=$ssh_dir/known_hosts" \
  --remote-scalelab "$scalelab"
grep -q "load host $remote: disconnected (exit status 255): .*refused" "$work/out" || fail "unreachable host: $(cat "$work/out")"

finish load_hosts_ssh
