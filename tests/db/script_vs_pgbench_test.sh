#!/usr/bin/env bash
# The same scripts under the installed pgbench and under `scalelab run`, against one throwaway
# embedded server: the same exit status, the same debug() values (hence the same random values
# for the same --random-seed, clients and threads), the same \gset/\aset results, and the same
# words when a script is refused or a client aborts.
# Usage: script_vs_pgbench_test.sh PATH/TO/scalelab   (PGBENCH=PATH: compare with that pgbench)
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server
scripts=$(cd "$(dirname "$0")/../data/scripts" && pwd)

"$scalelab" server start --data "$data" >"$work/out" 2>&1 || { cat "$work/out"; exit 1; }
conninfo=$("$scalelab" server status --data "$data" --conninfo)
bindir=$("$scalelab" --version | sed -n 's/^server: PostgreSQL [^ ]* from \([^ ]*\).*/\1/p')
# PGBENCH: another pgbench to compare with (bench/script_vs_pgbench17.sh passes pgbench 17's).
pgbench=${PGBENCH:-$bindir/pgbench}
[[ -x $pgbench ]] || pgbench=$(command -v pgbench)
[[ -x $pgbench ]] || { echo "no pgbench next to the server programs ($bindir)"; exit 1; }
# As root, pgbench runs as the server's owner like the server (it refuses nothing, but the
# scripts' \shell commands then run as the same user in both tools).
as_owner() { if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
chmod 755 "$scripts" 2>/dev/null || true

# compare NAME SCRIPT-FILE [OPTIONS...]: both tools, one file each, outputs in $work/pg and $work/sl
compare() {
  local name=$1 file=$2; shift 2
  as_owner "$pgbench" -n "$@" -f "$file" "$conninfo" >"$work/pg" 2>&1; pg_rc=$?
  "$scalelab" run -d "$conninfo" -n "$@" -f "$file" >"$work/sl" 2>&1; sl_rc=$?
  [[ $pg_rc == "$sl_rc" ]] || fail "$name: pgbench exit $pg_rc, scalelab exit $sl_rc; pgbench: $(cat "$work/pg"); scalelab: $(cat "$work/sl")"
  # Values, sorted: threads print in any order (and pgbench's threads may interleave lines).
  local values='(int|double|boolean) [^ ]+|: null'
  # Not the client-bound note ("this point measures the client" holds "int measures"), which a
  # busy machine adds; a filter on debug( would drop values whose lines pgbench's threads split.
  diff <(grep -v 'measures the client' "$work/pg" | grep -oE "$values" | sort) \
       <(grep -v 'measures the client' "$work/sl" | grep -oE "$values" | sort) >"$work/diff" ||
    fail "$name: debug() values differ (< pgbench, > scalelab): $(cat "$work/diff")"
}
# both_say NAME TEXT: the text is in both outputs
both_say() {
  grep -qF -- "$2" "$work/pg" || fail "$1: pgbench does not say '$2': $(cat "$work/pg")"
  grep -qF -- "$2" "$work/sl" || fail "$1: scalelab does not say '$2': $(cat "$work/sl")"
}
inline() { printf '%s' "$1" >"$work/inline.sql"; chmod 644 "$work/inline.sql"; echo "$work/inline.sql"; }

compare expressions "$scripts/expressions.sql" -t 1 --random-seed=5432 -Dfoo=-10.1 -Dbla=false -Di1=+3 -Dnn=null -Dtt=t -Dff=of -Dfl=1.0
[[ $(grep -c 'debug(' "$work/sl") -ge 40 ]] || fail "expressions: too few debug lines: $(cat "$work/sl")"
compare "meta commands" "$scripts/meta_commands.sql" -t 1 -M simple
both_say "meta commands" "shell-echo-output"
[[ $sl_rc == 0 ]] || fail "meta commands: exit $sl_rc: $(cat "$work/sl")"
for mode in extended prepared; do  # "\;" compounds cannot be prepared: both abort the client
  compare "meta commands $mode" "$scripts/meta_commands.sql" -t 1 -M "$mode"
  both_say "meta commands $mode" "cannot insert multiple commands into a prepared statement"
done
for mode in extended prepared; do
  compare "pipeline $mode" "$scripts/pipeline.sql" -t 10 -c 4 -j 2 -M "$mode"
  both_say "pipeline $mode" "number of transactions actually processed: 40/40"
done
# Random values per client and thread follow pgbench's seeding.
compare "seeded clients" "$(inline $'\\set a debug(random(1, 1000000))\n\\set b debug(random_zipfian(1, 1000, 1.1))\n')" \
  -t 3 -c 5 -j 2 --random-seed=7
expect_rc 0 "init" "$scalelab" init -d "$conninfo" --scale 1
compare "two scripts by weight" "$(inline $'\\set a debug(:client_id)\n')" -t 20 -c 3 -j 3 --random-seed=11 -b select-only@3
[[ $(grep -c 'debug(' "$work/sl") -ge 1 ]] || fail "weighted scripts: no debug line"

# Runtime errors: the client aborts (exit 2) with pgbench's words.
while IFS='|' read -r script phrase; do
  [[ -z $script ]] && continue
  compare "abort: $script" "$(inline "$(printf '%b' "$script")")" -t 1 -M prepared -Dfoo=bla -Dminint=-9223372036854775808 -Dmaxint=9223372036854775807
  [[ $pg_rc == 2 ]] || fail "abort: $script: pgbench exit $pg_rc"
  both_say "abort: $script" "$phrase"
done <<'CASES'
\\set i 1/0\n|division by zero
\\set i :foo + 1\n|malformed variable "foo" value: "bla"
\\set i random(:minint, :maxint)\n|random range is too large
\\set . 1\n|invalid variable name: "."
\\sleep :nosuchvariable\n|undefined variable "nosuchvariable"
\\setshell i echo -n one\n|shell command must return an integer (not "one")
\\shell echo ::foo :nosuchvariable\n|undefined variable ":nosuchvariable"
SELECT WHERE FALSE \\gset\n|expected one row, got 0
SELECT 1 \\gset\n|error storing into variable ?column?
SELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n|expected one row, got 2
\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n|undefined variable "i8"
BEGIN;SELECT 1;\n|end of script reached without completing the last transaction
SELECT 1 + ;\n|ERROR:  syntax error
\\startpipeline\n\\startpipeline\n|already in pipeline mode
\\endpipeline\n|not in pipeline mode
\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n|gset is not allowed in pipeline mode
\\startpipeline\nselect 1;\n|end of script reached with pipeline open
CASES

# Load-time errors: refused (exit 1) before anything runs, with pgbench's words.
while IFS='|' read -r script phrase; do
  [[ -z $script ]] && continue
  compare "refused: $script" "$(inline "$(printf '%b' "$script")")" -t 1
  [[ $pg_rc == 1 ]] || fail "refused: $script: pgbench exit $pg_rc"
  both_say "refused: $script" "$phrase"
done <<'CASES'
\\set i 1 +\n|syntax error in command "set"
\\set i hash()\n|unexpected number of arguments (hash)
\\set i noSuchFunction()\n|unexpected function name (noSuchFunction)
\\set i ;\n|unexpected character (;)
\\set d ln(1.0, 2.0))\n|unexpected number of arguments (ln)
\\set i greatest())\n|at least one argument expected (greatest)
\\set\n|missing argument in command "set"
\\sleep too many args\n|too many arguments in command "sleep"
\\sleep 1 week\n|unrecognized time unit, must be us, ms or s (week)
\\nosuchcommand\n|invalid command in command "nosuchcommand"
\\gset\n|gset must follow an SQL command
SELECT 1 \\gset a b\n|too many arguments in command "gset"
\\if 1\n|\if without matching \endif
\\if 1\n\\else\n\\else\n\\endif\n|\else after \else
\\shell\n|missing command in command "shell"
CASES
# pgbench's TAP set_i_op: the command's line and a caret under the place of the error.
compare "refused: set_i_op" "$(inline $'\\set i 1 +\n')" -t 1
both_say "refused: set_i_op" 'set i 1 +'
both_say "refused: set_i_op" '          ^ error found here'
compare "refused: empty" "$(inline '-- nothing')" -t 1
both_say "refused: empty" 'empty command list for script'

# Run options, each under both tools.
# -r: the same commands in the same order, with latency and failure columns.
compare "-r" "$scripts/pipeline.sql" -t 5 -c 2 -M extended -r
perline='^ +[0-9]+\.[0-9]{3} +[0-9]+  (.*)$'
diff <(grep -E "$perline" "$work/pg" | sed -E "s/$perline/\1/") <(grep -E "$perline" "$work/sl" | sed -E "s/$perline/\1/") \
  >"$work/diff" || fail "-r: commands differ: $(cat "$work/diff")"
[[ $(grep -cE "$perline" "$work/sl") == 18 ]] || fail "-r: 18 command lines expected: $(cat "$work/sl")"
both_say "-r" "statement latencies in milliseconds and failures:"
compare "-r --max-tries" "$(inline $'SELECT 1;\n')" -t 5 -r --max-tries 3
both_say "-r --max-tries" "statement latencies in milliseconds, failures and retries:"
# -l: one file per thread, pgbench's names and line format.
for tool in pg sl; do
  mkdir -p "$work/log_$tool"; chmod 777 "$work/log_$tool"
done
as_owner "$pgbench" -n -S -t 10 -c 2 -j 2 -l --log-prefix="$work/log_pg/tx" "$conninfo" >"$work/pg" 2>&1 || fail "pgbench -l: $(cat "$work/pg")"
"$scalelab" run -d "$conninfo" -n -S -t 10 -c 2 -j 2 -l --log-prefix="$work/log_sl/tx" >"$work/sl" 2>&1 || fail "scalelab -l: $(cat "$work/sl")"
for tool in pg sl; do
  files=("$work"/log_$tool/tx.*)
  [[ ${#files[@]} == 2 ]] || fail "-l ($tool): two files expected: ${files[*]}"
  grep -qE '^tx\.[0-9]+\.1$' <<<"$(ls "$work/log_$tool")" || fail "-l ($tool): no PREFIX.PID.1 file: $(ls "$work/log_$tool")"
  [[ $(cat "$work"/log_$tool/tx.* | grep -cE '^[01] ([1-9]|10) [0-9]+ 0 [0-9]{10} [0-9]+$') == 20 ]] ||
    fail "-l ($tool): 20 lines of pgbench's format expected: $(cat "$work"/log_$tool/tx.*)"
done
# --sampling-rate keeps a share; --aggregate-interval writes 15 fields a second (pgbench 15's layout).
# 4 s: under a loaded CI machine, pgbench -T 2 once wrote no complete interval at all.
rm -f "$work"/log_sl/*
"$scalelab" run -d "$conninfo" -n -S -t 200 -c 1 -l --sampling-rate 0.5 --log-prefix="$work/log_sl/s" >"$work/sl" 2>&1 || fail "sampling: $(cat "$work/sl")"
n=$(cat "$work"/log_sl/s.* | wc -l)
[[ $n -gt 40 && $n -lt 160 ]] || fail "--sampling-rate 0.5 logged $n of 200"
for tool in pg sl; do rm -f "$work"/log_$tool/*; done
as_owner "$pgbench" -n -S -T 4 -c 2 -l --aggregate-interval 1 -R 100 --log-prefix="$work/log_pg/a" "$conninfo" >"$work/pg" 2>&1
"$scalelab" run -d "$conninfo" -n -S -T 4 -c 2 -l --aggregate-interval 1 -R 100 --log-prefix="$work/log_sl/a" >"$work/sl" 2>&1
for tool in pg sl; do
  # An interval may be empty (the first starts at the whole second before the run): any
  # count is allowed, but some interval must have transactions.
  awk 'NF != 15 || $2 < 0 { bad = 1 } $2 > 0 { some = 1 } END { exit bad || !some }' "$work"/log_$tool/a.* ||
    fail "--aggregate-interval ($tool): lines of 15 fields expected: $(cat "$work"/log_$tool/a.*)"
done
# -C: a connection per transaction.
compare "-C" "$(inline $'SELECT 1;\n')" -t 10 -c 2 -C -M prepared
both_say "-C" "(including reconnection times)"
both_say "-C" "number of transactions actually processed: 20/20"
# Options pgbench refuses together.
compare "--log-prefix without -l" "$(inline $'SELECT 1;\n')" -t 1 --log-prefix=x
both_say "--log-prefix without -l" "log file prefix (--log-prefix) is allowed only when logging transactions (-l)"
compare "sampling and aggregation" "$(inline $'SELECT 1;\n')" -T 2 -l --sampling-rate 0.5 --aggregate-interval 1
both_say "sampling and aggregation" "log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time"
compare "aggregation longer than the run" "$(inline $'SELECT 1;\n')" -T 2 -l --aggregate-interval 3
both_say "aggregation longer than the run" "number of seconds for aggregation (3) must not be higher than test duration (2)"
compare "bad seed" "$(inline $'SELECT 1;\n')" -t 1 --random-seed=abc
both_say "bad seed" 'unrecognized random seed option "abc"'

# Issue 39: pgbench's newer options, and the older ones ScaleLab did not have.
# -b list and --show-script: the same text on stderr, exit 0; an ambiguous name refused by both.
both_run() {  # both_run NAME ARGS...: both tools with the same options and no conninfo of their own
  local name=$1; shift
  as_owner "$pgbench" "$@" >"$work/pg" 2>&1; pg_rc=$?
  "$scalelab" run "$@" >"$work/sl" 2>&1; sl_rc=$?
  [[ $pg_rc == "$sl_rc" ]] || fail "$name: pgbench exit $pg_rc, scalelab exit $sl_rc; pgbench: $(cat "$work/pg"); scalelab: $(cat "$work/sl")"
}
both_run "-b list" -b list
diff "$work/pg" "$work/sl" >"$work/diff" || fail "-b list differs: $(cat "$work/diff")"
for name in select-only tpcb simple-update; do
  both_run "--show-script $name" --show-script "$name"
  diff "$work/pg" "$work/sl" >"$work/diff" || fail "--show-script $name differs: $(cat "$work/diff")"
done
both_run "--show-script s" --show-script s
both_say "--show-script s" 'ambiguous builtin name: 2 builtin scripts found for prefix "s"'
# PGBENCH_RANDOM_SEED: the seed when --random-seed is not given (the same random values as
# pgbench's), overridden by the option; a bad one refused with pgbench's words.
seeded=$(inline $'\\set a debug(random(1, 1000000))\n')
PGBENCH_RANDOM_SEED=4242 compare "PGBENCH_RANDOM_SEED" "$seeded" -t 3 -c 2
both_say "PGBENCH_RANDOM_SEED" "setting random seed to 4242"
PGBENCH_RANDOM_SEED=4242 compare "PGBENCH_RANDOM_SEED and --random-seed" "$seeded" -t 3 --random-seed=7
PGBENCH_RANDOM_SEED=abc compare "bad PGBENCH_RANDOM_SEED" "$seeded" -t 1
both_say "bad PGBENCH_RANDOM_SEED" "error while setting random seed from PGBENCH_RANDOM_SEED environment variable"
# --debug: each step of each client, in pgbench 15's words.
compare "--debug" "$(inline $'\\set a random(1, 10)\nSELECT :a;\n')" -t 1 --debug
for step in 'client 0 executing script "' 'client 0 executing \set a' 'client 0 sending SELECT ' 'client 0 receiving'; do
  both_say "--debug" "$step"
done
# -d with a database name (pgbench 17's -d/--dbname): the server from PGHOST and PGPORT.
host=$(sed -n "s/.*host=\([^ ]*\).*/\1/p" <<<"$conninfo"); port=$(sed -n "s/.*port=\([0-9]*\).*/\1/p" <<<"$conninfo")
PGHOST=$host PGPORT=$port PGUSER=postgres "$scalelab" run -d scalelab -n -t 2 -f "$(inline $'SELECT 1;\n')" >"$work/sl" 2>&1 ||
  fail "-d DBNAME: $(cat "$work/sl")"
grep -qF "number of transactions actually processed: 2/2" "$work/sl" || fail "-d DBNAME: $(cat "$work/sl")"
# --continue-on-error (pgbench 19) and --exit-on-abort (pgbench 17), which the installed
# pgbench 15 does not have: the outcomes their own tests expect (001_pgbench_with_server.pl).
psql_do() { psql -qX "$conninfo" -c "$1" >/dev/null 2>&1 || fail "psql: $1"; }
psql_do "DROP TABLE IF EXISTS unique_table; CREATE TABLE unique_table(i int unique);"
"$scalelab" run -d "$conninfo" -n -t 10 --continue-on-error --failures-detailed \
  -f "$(inline $'\n\t\t\tINSERT INTO unique_table VALUES(0);\n\t\t\t')" >"$work/sl" 2>&1
[[ $? == 0 ]] || fail "--continue-on-error: exit status: $(cat "$work/sl")"
grep -qE 'processed: 1/10\b' "$work/sl" || fail "--continue-on-error: processed: $(cat "$work/sl")"
grep -qE 'other failures: 9\b' "$work/sl" || fail "--continue-on-error: other failures: $(cat "$work/sl")"
# The log: "other" per failed transaction, and pgbench 19's 16th aggregate field.
rm -rf "$work/log_coe"; mkdir -p "$work/log_coe"
"$scalelab" run -d "$conninfo" -n -t 5 --continue-on-error --failures-detailed -l --log-prefix="$work/log_coe/tx" \
  -f "$(inline $'INSERT INTO unique_table VALUES(0);\n')" >"$work/sl" 2>&1 || fail "--continue-on-error -l: $(cat "$work/sl")"
[[ $(cat "$work/log_coe"/tx.* | awk '$3 == "other"' | wc -l) == 5 ]] || fail "-l: 5 'other' lines expected: $(cat "$work"/log_coe/tx.*)"
rm -f "$work"/log_coe/*
"$scalelab" run -d "$conninfo" -n -T 2 --continue-on-error --failures-detailed -l --aggregate-interval 1 \
  --log-prefix="$work/log_coe/a" -f "$(inline $'INSERT INTO unique_table VALUES(0);\n')" >"$work/sl" 2>&1 ||
  fail "--continue-on-error --aggregate-interval: $(cat "$work/sl")"
awk 'NF != 16 { bad = 1 } { other += $16 } END { exit bad || other == 0 }' "$work"/log_coe/a.* ||
  fail "--aggregate-interval with --continue-on-error: 16 fields, other failures in the 16th: $(cat "$work"/log_coe/a.*)"
# Without it the client aborts at its second transaction, as pgbench 15-18.
"$scalelab" run -d "$conninfo" -n -t 10 -f "$(inline $'INSERT INTO unique_table VALUES(0);\n')" >"$work/sl" 2>&1
[[ $? == 2 ]] || fail "without --continue-on-error the client aborts: $(cat "$work/sl")"
psql_do "DROP TABLE IF EXISTS counter; CREATE TABLE counter(i int); INSERT INTO counter VALUES (0);"
"$scalelab" run -d "$conninfo" -n -t 10 -c 2 -j 2 --exit-on-abort \
  -f "$(inline $'\nupdate counter set i = i+1 returning i \\gset\n\\if :i = 5\n\\set y 1/0\n\\endif\n')" >"$work/sl" 2>&1
[[ $? == 2 ]] || fail "--exit-on-abort: exit status: $(cat "$work/sl")"
grep -q "division by zero" "$work/sl" || fail "--exit-on-abort: no division by zero: $(cat "$work/sl")"
grep -q "Run was aborted due to an error in thread" "$work/sl" || fail "--exit-on-abort: $(cat "$work/sl")"
grep -q "number of transactions actually processed" "$work/sl" && fail "--exit-on-abort printed results: $(cat "$work/sl")"
# A pgbench that has the option (17 and later: bench/script_vs_pgbench17.sh) does the same.
if as_owner "$pgbench" --help 2>&1 | grep -q -- --exit-on-abort; then
  eoa=$(inline $'\nupdate counter set i = i+1 returning i \\gset\n\\if :i = 5\n\\set y 1/0\n\\endif\n')
  psql_do "UPDATE counter SET i = 0;"
  as_owner "$pgbench" -n -t 10 -c 2 -j 2 --exit-on-abort -f "$eoa" "$conninfo" >"$work/pg" 2>&1
  [[ $? == 2 ]] || fail "pgbench --exit-on-abort: $(cat "$work/pg")"
  for phrase in "division by zero" "Run was aborted due to an error in thread"; do
    grep -q "$phrase" "$work/pg" || fail "pgbench --exit-on-abort does not say '$phrase': $(cat "$work/pg")"
  done
fi
if as_owner "$pgbench" --help 2>&1 | grep -q -- --continue-on-error; then
  psql_do "TRUNCATE unique_table;"
  compare "--continue-on-error" "$(inline $'INSERT INTO unique_table VALUES(0);\n')" -t 10 --continue-on-error --failures-detailed
  both_say "--continue-on-error" "other failures: 9"
fi

finish script_vs_pgbench
