#!/usr/bin/env bash
# `scalelab init` and `scalelab run` as a user types them, against a throwaway embedded server.
# Usage: load_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server

expect_rc 2 "-T and -t together" "$scalelab" run --data "$data" -T 1 -t 1
expect_rc 2 "unknown query mode" "$scalelab" run --data "$data" -M binary
# Each run setting's bounds come from its row (core/load/RunSettings.cpp), in the row's words.
expect_rc 2 "-L 0" "$scalelab" run --data "$data" -L 0
grep -q 'latency-limit.*must be a positive number of milliseconds (got 0)' "$work/out" || fail "-L 0 refused as pgbench: $(cat "$work/out")"
expect_rc 2 "-T beyond pgbench's limit" "$scalelab" run --data "$data" -T 1e10
grep -q "must be at most 2147483647 s, pgbench's -T limit (got 1e+10)" "$work/out" || fail "-T 1e10: $(cat "$work/out")"
expect_rc 2 "negative --max-tries" "$scalelab" run --data "$data" --max-tries -1
grep -q 'must be 0 (no limit) or more (got -1)' "$work/out" || fail "--max-tries -1: $(cat "$work/out")"
expect_rc 2 "-t not a number" "$scalelab" run --data "$data" -t many
grep -q "expected a number, found 'many'" "$work/out" || fail "-t many: $(cat "$work/out")"
[[ ! -e $data ]] || fail "a usage error must not create the cluster"

expect_rc 0 "init" "$scalelab" init --data "$data" --scale 2
grep -q '^scalelab: generating data (client-side)...$' "$work/out" || fail "init did not report: $(cat "$work/out")"
grep -q '^scalelab: done in .* s (drop tables .* primary keys .* s).$' "$work/out" || fail "init timings: $(cat "$work/out")"
expect_rc 1 "init again without --reinit" "$scalelab" init --data "$data" --scale 2
grep -q 're-create them with --reinit' "$work/out" || fail "re-init message: $(cat "$work/out")"
expect_rc 1 "unknown init step" "$scalelab" init --data "$data" -I dtx --reinit
grep -qF 'unrecognized initialization step "x"' "$work/out" || fail "init step message: $(cat "$work/out")"
expect_rc 0 "init with pgbench -i options" "$scalelab" init --data "$data" --scale 2 --reinit --partitions 2 \
  --partition-method hash -F 90 --foreign-keys -q
conninfo=$("$scalelab" server status --data "$data" --conninfo)
q() { psql "$conninfo" -XAtc "$1" 2>&1; }
[[ $(q "select count(*) from pg_inherits where inhparent = 'pgbench_accounts'::regclass") == 2 ]] || fail "partitions"
[[ $(q "select count(*) from pgbench_branches where filler is null") == 2 ]] || fail "branch filler must be NULL as in pgbench"
[[ $(q "select reloptions::text from pg_class where relname = 'pgbench_tellers'") == '{fillfactor=90}' ]] || fail "fillfactor"
[[ $(q "select count(*) from pg_constraint where contype = 'f' and conparentid = 0 and conname like 'pgbench_%'") == 5 ]] || fail "foreign keys"
expect_rc 0 "init --reinit" "$scalelab" init --data "$data" --scale 1 --reinit

# TPROC-C's tables (docs/load.md): a workload's options are refused with the other workload.
expect_rc 1 "pgbench's -s with --workload tprocc" "$scalelab" init --data "$data" --workload tprocc -s 3
grep -qF -- '-s is an option of --workload pgbench, not of --workload tprocc' "$work/out" || fail "-s with tprocc: $(cat "$work/out")"
expect_rc 1 "--warehouses without --workload tprocc" "$scalelab" init --data "$data" -w 3
grep -qF -- '--warehouses is an option of --workload tprocc' "$work/out" || fail "-w with pgbench: $(cat "$work/out")"
expect_rc 0 "init --workload tprocc" "$scalelab" init --data "$data" --workload tprocc -w 1 -j 2 --random-seed 9
grep -q '^scalelab: done in .* s (drop tables .* load .* keys .* vacuum analyze .* s).$' "$work/out" || fail "tprocc timings: $(cat "$work/out")"
[[ $(q "select count(*) from stock") == 100000 ]] || fail "tprocc stock rows: $(q "select count(*) from stock")"
[[ $(q "select obj_description('warehouse'::regclass, 'pg_class') like 'created by ScaleLab: TPROC-C, 1 warehouses, seed 9,%'") == t ]] ||
  fail "tprocc marker: $(q "select obj_description('warehouse'::regclass, 'pg_class')")"
expect_rc 1 "init --workload tprocc again without --reinit" "$scalelab" init --data "$data" --workload tprocc -w 1
grep -q 're-create them with --reinit' "$work/out" || fail "tprocc re-init message: $(cat "$work/out")"
# The TPROC-C script set over those tables: no failure, the 1% rollbacks rolled back, and the
# consistency conditions 1 to 4 of TPC-C's clause 3.3.2 still hold.
expect_rc 0 "run --workload tprocc" "$scalelab" run --data "$data" --workload tprocc -c 6 -j 2 -t 60 -M prepared --random-seed 3
grep -qF 'transaction type: new_order@4455, new_order_rollback@45, payment@4300, order_status@400, delivery@400, stock_level@400' "$work/out" ||
  fail "tprocc scripts: $(cat "$work/out")"
grep -q '^number of transactions actually processed: 360/360$' "$work/out" || fail "tprocc transactions: $(cat "$work/out")"
grep -q '^number of failed transactions: 0 ' "$work/out" || fail "tprocc failures: $(cat "$work/out")"
grep -q "^scalelab: TPROC-C: 1 warehouse, the run's NURand constants C_LAST " "$work/out" || fail "tprocc note: $(cat "$work/out")"
# In TPROC-C's terms (docs/load.md): NOPM and TPM, the rollbacks, a line per transaction; and
# pgbench's section per script, whose transactions add up to the run's.
grep -Eq '^TPROC-C: NOPM = [0-9]+ \(New-Order commits per minute\), TPM = [0-9]+ ' "$work/out" || fail "tprocc NOPM line: $(cat "$work/out")"
grep -Eq '^ - New-Order rolled back on purpose .*: [0-9]+ of [0-9]+ \([0-9.]+%\), not failures$' "$work/out" || fail "tprocc rollbacks: $(cat "$work/out")"
for t in New-Order Payment Order-Status Delivery Stock-Level; do
  grep -Eq "^ - $t +[0-9.]+% +[0-9.]+% +[0-9]+ +0 " "$work/out" || fail "tprocc line of $t: $(cat "$work/out")"
done
[[ $(grep -c '^SQL script [1-6]: ' "$work/out") == 6 ]] || fail "tprocc per-script sections: $(cat "$work/out")"
[[ $(sed -n 's/^ - number of transactions actually processed: \([0-9]*\) .*/\1/p' "$work/out" | awk '{s += $1} END {print s}') == 360 ]] ||
  fail "per-script transactions must add up to 360: $(cat "$work/out")"
# -P lines of a TPROC-C run carry the interval's NOPM after pgbench's fields.
expect_rc 0 "run --workload tprocc -P 1" "$scalelab" run --data "$data" --workload tprocc -c 2 -j 1 -T 2 -P 1 --random-seed 4
grep -Eq '^progress: [0-9.]+ s, [0-9.]+ tps, lat [0-9.]+ ms stddev [0-9.]+, 0 failed, [0-9]+ NOPM$' "$work/out" ||
  fail "tprocc -P line without NOPM: $(cat "$work/out")"
[[ $(q "select count(*) from warehouse w where w_ytd <> (select sum(d_ytd) from district where d_w_id = w_id)") == 0 ]] || fail "tprocc: W_YTD"
[[ $(q "select count(*) from district where d_next_o_id - 1 <> (select max(o_id) from orders where o_w_id = d_w_id and o_d_id = d_id)") == 0 ]] ||
  fail "tprocc: D_NEXT_O_ID"
[[ $(q "select (select sum(o_ol_cnt) from orders) = (select count(*) from order_line)") == t ]] || fail "tprocc: order lines"
[[ $(q "select sum(d_next_o_id) > 30010 from district") == t ]] || fail "tprocc: no New-Order was committed"
# scalelab check --workload tprocc: the twelve conditions after the run; one planted change, found.
expect_rc 0 "check --workload tprocc" "$scalelab" check --data "$data" --workload tprocc
[[ $(grep -Ec '^ +([1-9]|1[0-2])  ' "$work/out") == 12 ]] || fail "check prints twelve conditions: $(cat "$work/out")"
grep -q '^every condition that applies holds$' "$work/out" || fail "check verdict: $(cat "$work/out")"
grep -Eq '^ +11  .*not applicable: holds for the loaded data only; [0-9]+ orders were delivered since' "$work/out" ||
  fail "condition 11 after Deliveries: $(cat "$work/out")"
q "update district set d_ytd = d_ytd + 5 where d_w_id = 1 and d_id = 4" >/dev/null
expect_rc 1 "check finds a planted change" "$scalelab" check --data "$data" --workload tprocc
grep -Eq '^ +1  W_YTD = sum\(D_YTD\) +DOES NOT HOLD for 1 warehouse$' "$work/out" || fail "check condition 1: $(cat "$work/out")"
grep -Eq '^ +9  D_YTD = sum\(H_AMOUNT\) +DOES NOT HOLD for 1 district$' "$work/out" || fail "check condition 9: $(cat "$work/out")"
grep -q '^2 conditions do not hold$' "$work/out" || fail "check count: $(cat "$work/out")"
q "update district set d_ytd = d_ytd - 5 where d_w_id = 1 and d_id = 4" >/dev/null
expect_rc 2 "check without --workload" "$scalelab" check --data "$data"
# Keying and thinking times: TPROC-C's only, and not with a rate; said in the run's note.
expect_rc 1 "--keying-thinking without tprocc" "$scalelab" run --data "$data" -t 1 --keying-thinking 1
grep -qF -- '--keying-thinking gives TPROC-C' "$work/out" || fail "--keying-thinking with pgbench: $(cat "$work/out")"
expect_rc 1 "--keying-thinking with -R" "$scalelab" run --data "$data" --workload tprocc -T 1 -R 10 --keying-thinking 1
grep -qF 'drop the rate (-R), or the times' "$work/out" || fail "--keying-thinking with -R: $(cat "$work/out")"
expect_rc 0 "run --workload tprocc --keying-thinking" "$scalelab" run --data "$data" --workload tprocc -c 2 -T 2 --keying-thinking 0.01
grep -q "keying and thinking times x0.01 TPC-C's (not counted in the latencies)$" "$work/out" || fail "keying note: $(cat "$work/out")"
expect_rc 1 "run --workload tprocc with -b" "$scalelab" run --data "$data" --workload tprocc -b select-only
grep -qF 'runs its own scripts: drop -b, -f, -S and -N' "$work/out" || fail "tprocc with -b: $(cat "$work/out")"
# pgbench's tables and TPROC-C's live side by side: nothing of one is dropped by the other.
[[ $(q "select count(*) from pgbench_branches") == 1 ]] || fail "the pgbench tables must survive a TPROC-C init"

# The text report, pgbench style.
expect_rc 0 "run tpcb-like" "$scalelab" run --data "$data" -c 4 -j 2 -t 20 -M prepared
for line in 'avg-cpu:  %user   %nice %system %iowait  %steal   %idle' 'server per second: commits ' \
            'transaction type: <builtin: TPC-B (sort of)>' 'scaling factor: 1' 'query mode: prepared' \
            'number of clients: 4' 'number of threads: 2' 'number of transactions actually processed: 80' \
            'number of failed transactions: 0 (0.000%)' 'status: completed'; do
  grep -qF "$line" "$work/out" || fail "report lacks '$line': $(cat "$work/out")"
done

# Several scripts: pgbench's section for each (weight, share, transactions, latency), and in
# --json; with -r the statement latencies nest in them.
expect_rc 0 "run two weighted scripts" "$scalelab" run --data "$data" -c 2 -j 1 -t 40 -b select-only@3 -b simple-update@1 -r --random-seed 5
for line in 'SQL script 1: <builtin: select only>' ' - weight: 3 (targets 75.0% of total)' \
            'SQL script 2: <builtin: simple update>' ' - weight: 1 (targets 25.0% of total)' \
            ' - statement latencies in milliseconds and failures:'; do
  grep -qF -- "$line" "$work/out" || fail "per-script report lacks '$line': $(cat "$work/out")"
done
grep -q '^TPROC-C' "$work/out" && fail "TPROC-C lines in a pgbench run: $(cat "$work/out")"
[[ $(sed -n 's/^ - \([0-9]*\) transactions (.*% of total)$/\1/p' "$work/out" | awk '{s += $1} END {print s}') == 80 ]] ||
  fail "per-script transactions must add up to 80: $(cat "$work/out")"
"$scalelab" run --data "$data" -c 2 -j 1 -t 40 -b select-only@3 -b simple-update@1 --json >"$work/two.json" 2>"$work/err" || fail "two scripts json: $(cat "$work/err")"
python3 - "$work/two.json" <<'PY' || fail "per-script json: $(cat "$work/two.json")"
import json, sys
r = json.load(open(sys.argv[1]))
s = r["scripts"]
assert [x["name"] for x in s] == ["<builtin: select only>", "<builtin: simple update>"], s
assert [x["weight"] for x in s] == [3, 1], s
assert sum(x["transactions"] for x in s) == r["transactions"] == 80, s
assert all(x["latency"]["count"] == x["transactions"] for x in s), s
assert "script_set" not in r, r.get("script_set")
PY

# --json, read back with Python's json module.
"$scalelab" run --data "$data" -c 2 -j 1 -T 2 -S -P 1 --json >"$work/run.json" 2>"$work/err" || fail "json run: $(cat "$work/err")"
python3 - "$work/run.json" <<'PY' || fail "json report: $(cat "$work/run.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "completed", r["status"]
assert r["workload"] == "<builtin: select only>", r["workload"]
assert r["transactions"] > 0 and r["tps"] > 0
assert r["latency"]["p99_ms"] >= r["latency"]["p50_ms"] > 0
assert len(r["samples"]) >= 1
assert r["placement"]["method"] == "none" and r["placement"]["server_pus"], r["placement"]
m = r["system"]
assert abs(sum(m["cpu"].values()) - 100) < 0.01, m["cpu"]
assert m["load_generator_cpu_pct"] > 0 and m["server_cpu_pct"] > 0, m
assert m["server"]["commits_s"] > 0 and m["server"]["logical_reads_s"] > 0, m["server"]
assert "system" in r["samples"][0] and r["samples"][0]["system"]["cpu_per_pu"], r["samples"][0]
PY
grep -q '^progress: ' "$work/err" || fail "-P printed no progress line"
# No transaction completed: no latency, null in --json (never 0).
printf 'SELECT 1/0;\n' >"$work/div.sql"
"$scalelab" run --data "$data" -t 1 -f "$work/div.sql" --json >"$work/none.json" 2>/dev/null
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); l=r['latency']; assert l['count']==0 and l['mean_ms'] is None and l['p99_ms'] is None, l" \
  "$work/none.json" || fail "latency of a run without transactions: $(cat "$work/none.json")"

# CPU placement: the server and the load generator bound, and said so.
expect_rc 0 "run with a placement" "$scalelab" run --data "$data" -c 2 -j 2 -t 10 -S --placement cores:1
grep -q '^placement: cores:1 (emulated by binding): server PUs [0-9]' "$work/out" || fail "placement line: $(cat "$work/out")"
expect_rc 1 "placement beyond the machine" "$scalelab" run --data "$data" -t 1 --placement cores:4096
grep -q 'asks for 4096 cores' "$work/out" || fail "placement error: $(cat "$work/out")"
expect_rc 1 "unknown placement" "$scalelab" run --data "$data" -t 1 --placement half
grep -q "unknown placement 'half'" "$work/out" || fail "placement name error: $(cat "$work/out")"

# pgbench's housekeeping before a run: in the JSON record, and left out with -n.
"$scalelab" run --data "$data" -t 1 -S --json >"$work/hk.json" 2>/dev/null || fail "housekeeping run"
python3 -c 'import json,sys; h=[s["statement"] for s in json.load(open(sys.argv[1]))["housekeeping"]]; assert h == ["vacuum pgbench_branches", "vacuum pgbench_tellers", "truncate pgbench_history"], h' "$work/hk.json" || fail "housekeeping steps"
"$scalelab" run --data "$data" -t 1 -S -n --json >"$work/hk.json" 2>/dev/null || fail "-n run"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["housekeeping"] == []' "$work/hk.json" || fail "-n still vacuumed"

# :scale of a custom script is -s or 1, never the tables' scale (pgbench's rule).
"$scalelab" init --data "$data" --scale 2 --reinit >/dev/null 2>&1 || fail "init scale 2"
q "create table scale_seen (s int)" >/dev/null
printf 'INSERT INTO scale_seen VALUES (:scale);\n' >"$work/scale.sql"
expect_rc 0 "custom script without -s" "$scalelab" run --data "$data" -f "$work/scale.sql" -t 1
expect_rc 0 "custom script with -s 7" "$scalelab" run --data "$data" -f "$work/scale.sql" -t 1 -s 7
[[ $(q "select string_agg(s::text, ',' order by s) from scale_seen") == '1,7' ]] || fail ":scale of custom scripts: $(q 'select * from scale_seen')"
expect_rc 0 "built-in with -s" "$scalelab" run --data "$data" -S -t 1 -s 7
grep -qF 'scale option ignored, using count from pgbench_branches table (2)' "$work/out" || fail "-s with a built-in: $(cat "$work/out")"

# A failing statement aborts the client, as in pgbench: status failed, exit 2.
printf 'SELECT 1/0;\n' >"$work/div.sql"
expect_rc 2 "aborted clients" "$scalelab" run --data "$data" -f "$work/div.sql" -c 2 -T 2
grep -qF 'Run was aborted; the above results are incomplete.' "$work/out" || fail "abort message: $(cat "$work/out")"
grep -qF 'status: failed' "$work/out" || fail "abort status: $(cat "$work/out")"
grep -qE 'client [01] script 0 aborted in command 0 query 0: ERROR:  division by zero' "$work/out" || fail "abort words: $(cat "$work/out")"

# -L: the report lines pgbench prints.
expect_rc 0 "latency limit" "$scalelab" run --data "$data" -S -t 20 -R 100000 -L 0.001
grep -qE '^number of transactions skipped: [0-9]+ \([0-9.]+%\)$' "$work/out" || fail "skipped line: $(cat "$work/out")"
grep -qE '^number of transactions above the 0.0 ms latency limit: [0-9]+/[0-9]+ \([0-9.]+%\)$' "$work/out" || fail "late line: $(cat "$work/out")"

# More clients than PostgreSQL's default max_connections: the embedded server is sized for the
# run (once, said on stderr); a server of the user's that cannot take them is refused first.
expect_rc 0 "150 clients on the embedded server" "$scalelab" run --data "$data" -c 150 -j 2 -t 2 -S
grep -q "raising the embedded server's max_connections from [0-9]* to [0-9]* for 150 clients" "$work/out" \
  || fail "no sizing note: $(cat "$work/out")"
grep -qF 'number of transactions actually processed: 300/300' "$work/out" || fail "150 clients: $(cat "$work/out")"
expect_rc 1 "too many clients for a conninfo target" "$scalelab" run --conninfo "$conninfo" -c 5000 -j 2 -t 1 -S
grep -q 'the server has too few free connections: max_connections = [0-9]*' "$work/out" || fail "capacity refusal: $(cat "$work/out")"

# A custom script with a mistake: file, line and column.
printf 'SELECT 1;\n\\set x random(1, 10\n' >"$work/bad.sql"
expect_rc 1 "malformed script" "$scalelab" run --data "$data" -f "$work/bad.sql" -t 1
grep -qF "$work/bad.sql:2:20: syntax error in command \"set\"" "$work/out" || fail "script error: $(cat "$work/out")"

# A conninfo with a password is refused before anything connects.
expect_rc 1 "password in conninfo" "$scalelab" run --conninfo "host=/tmp password=secret" -t 1
grep -q 'never stores or logs passwords' "$work/out" || fail "password message: $(cat "$work/out")"
expect_rc 1 "password in a conninfo URI" "$scalelab" run --conninfo "postgresql://bench:secret@127.0.0.1/bench" -t 1
grep -q 'never stores or logs passwords' "$work/out" || fail "URI password message: $(cat "$work/out")"
grep -q 'secret' "$work/out" && fail "the refusal repeated the password: $(cat "$work/out")"

# Ctrl-C or SIGTERM: the report of what was measured, then exit 130 or 143 as a shell reports a
# process that a signal ended, so that a script can tell a stopped run from a finished one.
for sig in INT TERM; do
  "$scalelab" run --data "$data" -S -c 1 -T 120 -P 1 >"$work/stop.out" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do grep -q '^progress: ' "$work/stop.out" && break; sleep 0.1; done
  kill -s "$sig" "$pid"; wait "$pid"; rc=$?
  want=143; [[ $sig == INT ]] && want=130
  [[ $rc == "$want" ]] || fail "run stopped by SIG$sig: exit $rc, expected $want: $(cat "$work/stop.out")"
  grep -qF 'status: stopped' "$work/stop.out" || fail "SIG$sig: no report of what was measured: $(cat "$work/stop.out")"
done

finish "load CLI"
