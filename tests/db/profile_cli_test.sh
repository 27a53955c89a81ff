#!/usr/bin/env bash
# Where the server's CPU goes (issue 62), against a real server and the real perf: two series
# that differ in a known CPU cost (the script hashes 2,000 strings with md5 in every transaction
# where the series' statement_timeout says so), each run profiled. The comparison names the md5
# work among its first lines; the light side's profile never contains it. Then the folded files,
# the flame graphs, `run --cpu-profile`, and what is refused before anything runs.
# Usage: profile_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
command -v perf >/dev/null || { [[ ${CI:-} == true ]] && { echo "FAIL: perf is not installed"; exit 1; }; echo "SKIP: no perf"; exit 77; }

# The series' own setting is read by the script: the same statements on both sides, and the
# heavy side's extra work in functions the light side never calls.
cat >"$work/heavy.sql" <<'SQL'
SELECT CASE WHEN current_setting('statement_timeout') = '1h'
            THEN (SELECT count(md5(i::text)) FROM generate_series(1, 2000) i) ELSE 0 END;
SQL
cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"files": ["$work/heavy.sql"]},
 "series": [{"label": "light"}, {"label": "heavy", "settings": {"statement_timeout": "1h"}}],
 "clients": "2", "threads": 2, "duration": 3, "repetitions": 2,
 "diagnostics": {"cpu_profile": true}}
JSON
expect_rc 0 "sweep with CPU profiles" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab"
grep -q 'CPU profile: perf record at 99 Hz' "$work/out" || fail "the sweep does not say how the CPU is profiled: $(cat "$work/out")"

expect_rc 0 "report --profile" "$scalelab" report "$work/e.slab" --profile
grep -q '^light, 2 clients: 2 runs with a CPU profile (perf record -F 99 -e cpu-clock -g, [0-9]* samples in the first)' "$work/out" ||
  fail "no heading for light: $(cat "$work/out")"
expect_rc 0 "report --profile --compare light heavy" "$scalelab" report "$work/e.slab" --profile --compare light heavy
cp "$work/out" "$work/compare.txt"
grep -q 'Bonferroni over the [0-9]* functions with 1% or more' "$work/compare.txt" || fail "no comparison heading: $(cat "$work/compare.txt")"
# The table's first three rows (by the size of the change): the md5 work is among them.
rows=$(awk '/ function$/ { on = 1; next } on && n < 3 { print; n++ }' "$work/compare.txt")
grep -Eq 'md5|MD5|libcrypto|EVP_' <<<"$rows" || fail "the md5 work is not among the first changes: $(cat "$work/compare.txt")"

expect_rc 0 "export --folded" "$scalelab" export "$work/e.slab" --folded "$work/folded"
for side in light heavy; do
  f=$work/folded/$side-2-clients.folded
  [[ -s $f ]] || fail "no $f"
  grep -Evq '^.+ [0-9]+$' "$f" && fail "$f has a line that is not 'stack count': $(grep -Ev '^.+ [0-9]+$' "$f" | head -2)"
  head -1 "$f" | grep -Eq '^(client backend|postmaster|checkpointer|walwriter|background writer|autovacuum launcher|logical replication launcher|postgres);' ||
    fail "$f: a stack is not rooted at a process kind: $(head -1 "$f")"
done
grep -q 'md5' "$work/folded/heavy-2-clients.folded" || fail "the heavy side's profile has no md5"
# (libcrypto itself may show on the light side: a backend touches it outside any md5, a page
# fault at start-up once made a sample there; the md5 functions are the work.)
grep -Eiq 'md5' "$work/folded/light-2-clients.folded" && fail "the light side's profile has md5 work: $(grep -Ei 'md5' "$work/folded/light-2-clients.folded" | head -2)"

expect_rc 0 "export --svg --flame" "$scalelab" export "$work/e.slab" --svg "$work/flame.svg" --flame heavy --clients 2
grep -q 'class="flame"' "$work/flame.svg" && grep -q 'md5' "$work/flame.svg" || fail "the flame graph lacks its frames"
expect_rc 0 "export --svg --flame-diff" "$scalelab" export "$work/e.slab" --svg "$work/diff.svg" --flame-diff light heavy --clients 2
grep -q 'against light' "$work/diff.svg" && grep -q 'rgb(255,' "$work/diff.svg" || fail "the differential graph has no red"
expect_rc 1 "a flame graph of a point not run" "$scalelab" export "$work/e.slab" --svg "$work/x.svg" --flame heavy --clients 3
grep -q 'heavy has no completed run at 3 clients' "$work/out" || fail "x not run: $(cat "$work/out")"
expect_rc 2 "a flame graph without --svg" "$scalelab" export "$work/e.slab" --flame heavy --clients 2
grep -q 'give --svg FILE' "$work/out" || fail "no --svg: $(cat "$work/out")"

# One run, profiled: the folded stacks in the file named.
expect_rc 0 "run --cpu-profile" "$scalelab" run --data "$data" -f "$work/heavy.sql" -c 2 -j 2 -T 2 --cpu-profile "$work/run.folded"
[[ -s $work/run.folded ]] || fail "run --cpu-profile wrote nothing"
grep -q 'samples of the server.s processes' "$work/out" || fail "run --cpu-profile does not say what it wrote: $(cat "$work/out")"

# Refused before anything runs: perf missing (the package named), a rate perf cannot take.
mkdir -p "$work/bin"
PATH=$work/bin:/usr/lib/postgresql/15/bin expect_rc 1 "a sweep without perf" "$scalelab" sweep "$work/plan.json" -o "$work/noperf.slab"
grep -q 'cpu_profile: perf is not installed (Debian: apt-get install linux-perf)' "$work/out" || fail "no perf: $(cat "$work/out")"
[[ -e $work/noperf.slab ]] && fail "a refused sweep wrote its file"
PATH=$work/bin:/usr/lib/postgresql/15/bin expect_rc 1 "run --cpu-profile without perf" "$scalelab" run --data "$data" -c 1 -T 1 --cpu-profile "$work/no.folded"
grep -q 'perf is not installed' "$work/out" || fail "run without perf: $(cat "$work/out")"
sed 's/"cpu_profile": true/"cpu_profile": true, "profile_hz": 5000/' "$work/plan.json" >"$work/fast.json"
expect_rc 1 "profile_hz above 1000" "$scalelab" sweep "$work/fast.json" -o "$work/fast.slab"
grep -q '\$.diagnostics.profile_hz: must be from 1 to 1000' "$work/out" || fail "profile_hz 5000: $(cat "$work/out")"
finish profile_cli
