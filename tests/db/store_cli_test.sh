#!/usr/bin/env bash
# The PostgreSQL results store as a user types it: a sweep into the store (and resumed), runs,
# notes, report, a copy out to a file and back in under another name with every run the same,
# the store's list, deleting, and the mistakes (no name, a password, a name taken).
# Usage: store_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server

expect_rc 0 "server start" "$scalelab" server start --data "$data"
conninfo=$("$scalelab" server status --data "$data" --conninfo)
psql "$conninfo" -XAtqc "create database results" >"$work/out" 2>&1 || fail "create database: $(cat "$work/out")"
store=$(sed 's/dbname=[^ ]*/dbname=results/' <<<"$conninfo")
[[ $store == *dbname=results* ]] || fail "no dbname in $conninfo"

cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only"},
 "series": [{"label": "A"}],
 "clients": [1, 2], "threads": 1, "duration": 1, "repetitions": 1, "seed": 3, "data": {"scale": 1}}
JSON

expect_rc 2 "a store with a name" "$scalelab" experiments "$store#x"
grep -q "names one experiment; give the store alone" "$work/out" || fail "experiments with #: $(cat "$work/out")"
expect_rc 0 "an empty store" "$scalelab" experiments "$store"
grep -q "no experiments in" "$work/out" || fail "empty list: $(cat "$work/out")"

expect_rc 0 "sweep into the store" "$scalelab" sweep "$work/plan.json" --store "$store" -o "head 2026-12" -q
grep -q "experiment written to postgresql://" "$work/out" || fail "sweep's last line: $(cat "$work/out")"
expect_rc 1 "a second sweep under the same name" "$scalelab" sweep "$work/plan.json" --store "$store" -o "head 2026-12" -q
grep -q "already exists: continue its sweep with --resume" "$work/out" || fail "name taken: $(cat "$work/out")"
expect_rc 0 "resume a finished sweep" "$scalelab" sweep "$work/plan.json" --store "$store" -o "head 2026-12" --resume -q

expect_rc 0 "runs" "$scalelab" runs --store "$store" "head 2026-12"
[[ $(awk 'NR > 1 && $6 == "completed"' "$work/out" | wc -l) == 2 ]] || fail "two completed runs: $(cat "$work/out")"
expect_rc 0 "exclude run 1" "$scalelab" runs --store "$store" "head 2026-12" --exclude 1
expect_rc 0 "a note" "$scalelab" note --store "$store" "head 2026-12" "HEAD on the CI box"
expect_rc 0 "report" "$scalelab" report --store "$store" "head 2026-12"
grep -q "^A " "$work/out" || fail "report's points: $(cat "$work/out")"

# Out to a file and back under another name: the same runs, notes and exclusions.
expect_rc 0 "export --to a file" "$scalelab" export --store "$store" "head 2026-12" --to "$work/copy.slab"
grep -q "copied 2 runs" "$work/out" || fail "export --to: $(cat "$work/out")"
expect_rc 0 "import the file into the store" "$scalelab" import "$work/copy.slab" --store "$store" -o "copy back"
"$scalelab" runs --store "$store" "head 2026-12" >"$work/a" 2>&1
"$scalelab" runs --store "$store" "copy back" >"$work/b" 2>&1
"$scalelab" runs "$work/copy.slab" >"$work/c" 2>&1
cmp -s "$work/a" "$work/b" && cmp -s "$work/a" "$work/c" || fail "runs differ after the round trip: $(diff "$work/a" "$work/b"; diff "$work/a" "$work/c")"
grep -q "excluded" "$work/b" || fail "the exclusion was lost: $(cat "$work/b")"
[[ $("$scalelab" note --store "$store" "copy back" 2>&1) == "HEAD on the CI box" ]] || fail "the note was lost"
expect_rc 1 "import into a name taken" "$scalelab" import "$work/copy.slab" --store "$store" -o "copy back"
grep -q "already exists" "$work/out" || fail "import into a taken name: $(cat "$work/out")"

# A full location works wherever a file does; the list shows both experiments.
location=$("$scalelab" experiments "$store" 2>&1 >/dev/null | sed -n 's/.*, or as //p')
[[ $location == postgresql://*#copy%20back ]] || fail "location hint: $location"
expect_rc 0 "runs by location" "$scalelab" runs "$location"
cmp -s "$work/a" "$work/out" || fail "runs by location differ: $(cat "$work/out")"
expect_rc 0 "export a chart from the store" "$scalelab" export "$location" --png "$work/chart.png"
[[ -s $work/chart.png ]] || fail "no chart from the store"
expect_rc 0 "list" "$scalelab" experiments "$store"
grep -q "^copy back  *2 " "$work/out" && grep -q "^head 2026-12  *2 .*HEAD on the CI box" "$work/out" ||
  fail "list: $(cat "$work/out")"
expect_rc 0 "delete" "$scalelab" experiments "$store" --delete "copy back"
expect_rc 1 "runs of a deleted experiment" "$scalelab" runs "$location"
grep -q "no experiment postgresql://.*#copy%20back" "$work/out" || fail "deleted: $(cat "$work/out")"

# Mistakes say what and where.
expect_rc 1 "a password in the store" "$scalelab" runs "postgresql://bench:secret@localhost/results#x"
grep -q "holds a password; ScaleLab never stores or logs passwords" "$work/out" || fail "password: $(cat "$work/out")"
# Issue 31.4: every command that takes a location says the password is there without saying it.
secret='Pw-9f3Kx'
no_password_echo() { # command words...
  "$scalelab" "$@" >"$work/out" 2>&1 && fail "accepted: scalelab ${*//$secret/PW}"
  grep -q -- "$secret" "$work/out" && fail "the password was printed: scalelab ${*//$secret/PW}: $(sed "s/$secret/PW/g" "$work/out")"
  grep -q 'bench:\*\*\*@\|password=\*\*\*\|holds a password' "$work/out" || fail "no word of the password: $(cat "$work/out")"
}
no_password_echo runs "postgresql://bench:$secret@localhost/results#x"
no_password_echo experiments "postgresql://bench:$secret@localhost/results"
no_password_echo experiments "host=localhost password=$secret"
no_password_echo experiments "host=localhost" "password=$secret"  # CLI11's own error quotes it
no_password_echo export --store "$store" "head 2026-12" --to "postgresql://bench:$secret@localhost/results#y"
no_password_echo import "$(dirname "$0")/../data/pgbench/pgbench-16.txt" --series A -o "postgresql://bench:$secret@localhost/results#z"
no_password_echo runs "postgresql://bench:$secret@localhost/results?sslmode=bogus#x"
no_password_echo runs "postgresql://bench:$secret@localhost/results#%zz"

expect_rc 1 "a location without a name" "$scalelab" runs "postgresql://localhost/results"
grep -q "names a results store but no experiment in it: add #NAME" "$work/out" || fail "no name: $(cat "$work/out")"

finish store_cli
