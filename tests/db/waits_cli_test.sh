#!/usr/bin/env bash
# Where the sessions wait (issue 62), against a real server: 8 clients of tpcb-like at scale 1
# (every transaction updates the one branch row) wait mostly on Lock:transactionid; the same at
# scale 10 (ten branch rows) do not; read from pg_wait_sampling (the embedded server preloads
# it), and again from pg_stat_activity. Then what `report --waits` says and refuses, a server
# that does not load the extension (said, and refused where it is required), and a sweep with
# waits off records none (missing, never zero).
# Usage: waits_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server

cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "tpcb-like"},
 "series": [{"label": "tpcb"}],
 "clients": "8", "threads": 2, "duration": 4, "repetitions": 1, "data": {"scale": [1, 10]}}
JSON
expect_rc 0 "sweep at scales 1 and 10" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab"
grep -q 'waits: pg_wait_sampling at 100 Hz$' "$work/out" || fail "the sweep does not say where waits come from: $(cat "$work/out")"
grep -q "shared_preload_libraries = 'pg_stat_statements,pg_wait_sampling'" "$data/postgresql.conf" ||
  fail "the embedded server does not preload pg_wait_sampling: $(grep shared_preload "$data/postgresql.conf")"

expect_rc 0 "report --waits" "$scalelab" report "$work/e.slab" --waits
cp "$work/out" "$work/waits.txt"
# The first event of each point's table: the line after the table's heading.
first_event() { awk -v point="$1" 'index($0, point) == 1 { found = 1; next } found && /wait event$/ { getline; print $NF; exit }' "$work/waits.txt"; }
grep -q '^tpcb, scale 1: 1 run with waits (pg_wait_sampling at 100 Hz, [0-9]* samples)' "$work/waits.txt" ||
  fail "no heading for scale 1: $(cat "$work/waits.txt")"
[[ $(first_event "tpcb, scale 1:") == Lock:transactionid ]] ||
  fail "scale 1: the top wait is $(first_event "tpcb, scale 1:"), not Lock:transactionid: $(cat "$work/waits.txt")"
top10=$(first_event "tpcb, scale 10:")
[[ -n $top10 && $top10 != Lock:transactionid ]] || fail "scale 10: the top wait is '$top10': $(cat "$work/waits.txt")"
# The collector's rounds at 100 Hz through a 4 s window: about 400 (fewer where it lags), never
# a handful.
samples=$(sed -n 's/^tpcb, scale 1: .*, \([0-9]*\) samples).*/\1/p' "$work/waits.txt")
((samples >= 200 && samples <= 450)) || fail "scale 1: $samples rounds in 4 s at 100 Hz"
# The load's CPU is there: pg_wait_sampling 1.1 does not sample it; ScaleLab counts it.
grep -A12 '^tpcb, scale 1:' "$work/waits.txt" | grep -q ' CPU$' || fail "scale 1: no CPU among the waits: $(cat "$work/waits.txt")"

# The same from pg_stat_activity, asked for.
sed 's/"repetitions": 1,/"repetitions": 1, "diagnostics": {"waits_source": "pg_stat_activity"},/; s/"scale": \[1, 10\]/"scale": 1, "init": "reinit"/' \
  "$work/plan.json" >"$work/activity.json"
expect_rc 0 "sweep from pg_stat_activity" "$scalelab" sweep "$work/activity.json" -o "$work/activity.slab"
grep -q 'waits: pg_stat_activity at 10 Hz$' "$work/out" || fail "waits_source pg_stat_activity: $(cat "$work/out")"
expect_rc 0 "report --waits of it" "$scalelab" report "$work/activity.slab" --waits
cp "$work/out" "$work/waits.txt"
[[ $(first_event "tpcb, 8 clients:") == Lock:transactionid ]] ||
  fail "pg_stat_activity: the top wait is $(first_event "tpcb, 8 clients:"): $(cat "$work/waits.txt")"
samples=$(sed -n 's/^tpcb, 8 clients: .*pg_stat_activity at 10 Hz, \([0-9]*\) samples).*/\1/p' "$work/waits.txt")
((samples >= 30 && samples <= 50)) || fail "pg_stat_activity: '$samples' samples in 4 s at 10 Hz"

expect_rc 0 "report --waits --clients 10 --top 2" "$scalelab" report "$work/e.slab" --waits --clients 10 --top 2
grep -q '^tpcb, scale 10:' "$work/out" && ! grep -q '^tpcb, scale 1:' "$work/out" || fail "--clients 10: $(cat "$work/out")"
grep -q 'more: --top 0 shows all' "$work/out" || fail "--top 2 does not say more events exist: $(cat "$work/out")"
expect_rc 1 "report --waits at a point not run" "$scalelab" report "$work/e.slab" --waits --clients 3
grep -q 'no completed run at scale 3' "$work/out" || fail "x not run: $(cat "$work/out")"
expect_rc 2 "--waits with --statements" "$scalelab" report "$work/e.slab" --waits --statements
grep -q 'give one' "$work/out" || fail "--waits --statements: $(cat "$work/out")"
expect_rc 2 "--waits with --usl" "$scalelab" report "$work/e.slab" --waits --usl
grep -q -- '--waits shows its own tables' "$work/out" || fail "--waits --usl: $(cat "$work/out")"

# Waits off: the run has none, and the report says why instead of showing zeros.
sed 's/"repetitions": 1,/"repetitions": 1, "diagnostics": {"waits": false},/; s/"scale": \[1, 10\]/"scale": 1/' \
  "$work/plan.json" >"$work/off.json"
expect_rc 0 "sweep with waits off" "$scalelab" sweep "$work/off.json" -o "$work/off.slab"
expect_rc 0 "report --waits of it" "$scalelab" report "$work/off.slab" --waits
grep -q '^tpcb, 8 clients: 0 runs with waits, 1 without (no waits recorded' "$work/out" || fail "waits off: $(cat "$work/out")"
grep -q 'Lock:' "$work/out" && fail "waits off shows events: $(cat "$work/out")"
sed 's/"diagnostics": {"waits": false}/"diagnostics": {"wait": true}/' "$work/off.json" >"$work/typo.json"
expect_rc 1 "a misspelt diagnostics member" "$scalelab" sweep "$work/typo.json" -o "$work/typo.slab"
grep -q '\$.diagnostics.wait' "$work/out" || fail "diagnostics typo: $(cat "$work/out")"
# A cluster whose postgresql.conf sets shared_preload_libraries itself (the user's choice, kept):
# waits come from pg_stat_activity, and the sweep says why; asked for pg_wait_sampling, refused.
echo "shared_preload_libraries = 'pg_stat_statements'" >>"$data/postgresql.conf"
sed 's/"repetitions": 1,/"repetitions": 1, "duration": 2,/; s/"scale": \[1, 10\]/"scale": 1/' "$work/plan.json" >"$work/user.json"
expect_rc 0 "sweep, the user's preload line" "$scalelab" sweep "$work/user.json" -o "$work/user.slab"
grep -q 'waits: pg_stat_activity at 10 Hz (pg_wait_sampling not used: the server does not load it (shared_preload_libraries))' \
  "$work/out" || fail "no reason why pg_wait_sampling is not used: $(cat "$work/out")"
sed 's/"repetitions": 1,/"repetitions": 1, "diagnostics": {"waits_source": "pg_wait_sampling"},/' "$work/user.json" >"$work/required.json"
expect_rc 1 "pg_wait_sampling required, not loaded" "$scalelab" sweep "$work/required.json" -o "$work/required.slab"
grep -q "waits_source: pg_wait_sampling cannot be used: .*postgresql.conf sets shared_preload_libraries without pg_wait_sampling" \
  "$work/out" || fail "required and not loaded: $(cat "$work/out")"
[[ ! -e $work/required.slab ]] || fail "a refused sweep wrote $work/required.slab"
sed 's/"pg_wait_sampling"}/"pg_wait_samplin"}/' "$work/required.json" >"$work/typo.json"
expect_rc 1 "a misspelt waits_source" "$scalelab" sweep "$work/typo.json" -o "$work/typo.slab"
grep -q '\$.diagnostics.waits_source: must be "auto", "pg_wait_sampling" or "pg_stat_activity" (got "pg_wait_samplin")' "$work/out" ||
  fail "waits_source typo: $(cat "$work/out")"
finish waits_cli
