#!/usr/bin/env bash
# Sweeps, experiment files, import, export and report as a user types them: including a sweep
# killed with SIGKILL in the middle and resumed, and pgbench's own output imported.
# Usage: sweep_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
# A known secret in the environment, as a user with PGPASSWORD set has it: no file that the
# sweep, the export or the report write may hold it (checked at the end).
export PGPASSWORD=Kn0wn-S3cret-4711
cleanup_extra() { [[ -n "${sweep_pid:-}" ]] && kill -9 "$sweep_pid" 2>/dev/null; }
require_server
count_runs() { "$scalelab" runs "$1" 2>/dev/null | awk 'NR > 1 && $6 == "completed"' | wc -l; }

cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"builtin": "select-only"},
 "series": [{"label": "A"}, {"label": "B", "settings": {"work_mem": "2MB"}}],
 "clients": [1, 2], "threads": 1, "duration": 1.5, "repetitions": 2, "seed": 3, "data": {"scale": 1}}
JSON

# Plan mistakes: the JSON path, before anything runs.
sed 's/"work_mem"/"work_meme"/' "$work/plan.json" >"$work/bad-setting.json"
expect_rc 1 "unknown setting" "$scalelab" sweep "$work/bad-setting.json" -o "$work/bad.slab"
grep -q '\$.series\[1\].settings.work_meme: unknown server setting' "$work/out" || fail "setting path: $(cat "$work/out")"
sed 's/"clients": \[1, 2\]/"clients": "1,,x"/' "$work/plan.json" >"$work/bad-clients.json"
expect_rc 1 "bad client list" "$scalelab" sweep "$work/bad-clients.json" -o "$work/bad.slab"
grep -q '\$.clients: .1,,x.: expected a list' "$work/out" || fail "clients path: $(cat "$work/out")"
[[ ! -e $work/bad.slab ]] || fail "a bad plan must not create the experiment file"
# Issue 31.14: a plan the server refuses at run time leaves no empty file behind, and the rerun
# says the same thing again rather than "already exists".
sed 's/"work_mem": "2MB"/"work_mem": "banana"/' "$work/plan.json" >"$work/bad-value.json"
for attempt in 1 2; do
  expect_rc 1 "a setting the server refuses ($attempt)" "$scalelab" sweep "$work/bad-value.json" -o "$work/bad.slab"
  grep -q 'server setting work_mem=banana rejected' "$work/out" || fail "setting value ($attempt): $(cat "$work/out")"
  [[ ! -e $work/bad.slab ]] || fail "a sweep that stored no run left $work/bad.slab"
done

# Issue 60.10: a sweep in which every run failed exited 0. It exits 1 and says so; the failed
# runs are kept, with their errors.
echo 'SELECT 1/0;' >"$work/fails.sql"
cat >"$work/all-fail.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"}, "workload": {"files": "$work/fails.sql", "vacuum": "none"},
 "series": [{"label": "A"}], "clients": [1], "threads": 1, "duration": 1, "repetitions": 1, "retries": 0, "seed": 3}
JSON
expect_rc 1 "a sweep whose every run failed" "$scalelab" sweep "$work/all-fail.json" -o "$work/all-fail.slab"
grep -q 'every run of this sweep failed (1 run): nothing was measured' "$work/out" || fail "all failed: $(cat "$work/out")"
"$scalelab" runs "$work/all-fail.slab" | grep -q 'failed.*division by zero' || fail "the failed run was not kept"

# Starts the plan's sweep into $1 in the background (sweep_pid) and returns once $2 runs are in.
sweep_until_runs() {
  "$scalelab" sweep "$work/plan.json" -o "$1" >"$work/sweep.log" 2>&1 &
  sweep_pid=$!
  for _ in $(seq 1 600); do
    [[ -s $1 && $(count_runs "$1") -ge $2 ]] && return
    sleep 0.1
  done
}

# Crash safety: SIGKILL the sweep once two runs are in, then resume.
sweep_until_runs "$work/e.slab" 2
kill -9 "$sweep_pid"; wait "$sweep_pid" 2>/dev/null; sweep_pid=
before=$(count_runs "$work/e.slab")
[[ $before -ge 2 && $before -lt 8 ]] || fail "expected a part of the sweep before the kill, found $before runs"
expect_rc 1 "second sweep into the same file" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab"
grep -q 'already exists: continue its sweep with --resume' "$work/out" || fail "resume hint: $(cat "$work/out")"
expect_rc 0 "resume" "$scalelab" sweep "$work/plan.json" -o "$work/e.slab" --resume
[[ $(count_runs "$work/e.slab") == 8 ]] || fail "after resume: $(count_runs "$work/e.slab") completed runs, expected 8"
dups=$("$scalelab" runs "$work/e.slab" | awk 'NR > 1 && $6 == "completed" {print $2}' | sort | uniq -d)
[[ -z $dups ]] || fail "run indexes written twice: $dups"

# SIGTERM (as Ctrl-C): the run in progress is kept, marked stopped, and the sweep exits 143, not 0.
sweep_until_runs "$work/stopped.slab" 1
kill -TERM "$sweep_pid"; wait "$sweep_pid"; rc=$?; sweep_pid=
[[ $rc == 143 ]] || fail "a sweep stopped by SIGTERM exited $rc, expected 143: $(cat "$work/sweep.log")"
grep -q 'experiment written to' "$work/sweep.log" || fail "stopped sweep: $(cat "$work/sweep.log")"
[[ $(count_runs "$work/stopped.slab") -ge 1 ]] || fail "the stopped sweep lost its runs"

# Issue 31.5: a label from a file reaches the terminal without its escape sequences (a title
# change, a screen clear), and a CSV cell that a spreadsheet would run is written as text.
esc=$'\e]0;pwned\a\e[2J'
"$scalelab" import "$(dirname "$0")/../data/pgbench/pgbench-16.txt" --series "=A${esc}B" -o "$work/esc.slab" >/dev/null 2>&1 ||
  fail "import with an escape in the label"
"$scalelab" note "$work/esc.slab" "note${esc}end" >/dev/null 2>&1 || fail "note with an escape"
for cmd in runs report note; do
  "$scalelab" $cmd "$work/esc.slab" >"$work/out" 2>&1
  grep -q $'\e' "$work/out" && fail "$cmd printed an escape sequence: $(cat -v "$work/out")"
  grep -q '=A?\]0;pwned??\[2JB\|note?\]0;pwned??\[2Jend' "$work/out" || fail "$cmd: the label is not shown: $(cat -v "$work/out")"
done
"$scalelab" export "$work/esc.slab" --csv "$work/esc-csv" >/dev/null 2>&1 || fail "export csv"
grep -q "^1,.*,'=A" "$work/esc-csv/runs.csv" || fail "runs.csv: the label is not neutralised: $(cat -v "$work/esc-csv/runs.csv")"

# Excluding a run takes it out of the points and keeps it in the file.
first=$("$scalelab" runs "$work/e.slab" | awk 'NR == 2 {print $1}')
expect_rc 0 "exclude a run" "$scalelab" runs "$work/e.slab" --exclude "$first"
grep -q "^ *$first .* excluded" "$work/out" || fail "run $first not marked excluded: $(cat "$work/out")"
"$scalelab" report "$work/e.slab" | awk 'NR > 2 && $3 == 1 {found=1} END {exit !found}' || fail "no point lost a run after --exclude"
expect_rc 0 "include it again" "$scalelab" runs "$work/e.slab" --include "$first"
expect_rc 1 "exclude an unknown run" "$scalelab" runs "$work/e.slab" --exclude 99999
grep -q "has no run 99999" "$work/out" || fail "unknown run message: $(cat "$work/out")"

# Report, compare, export.
expect_rc 0 "report" "$scalelab" report "$work/e.slab" --compare A B --peak --baseline A --csv "$work/tables"
grep -q '^B vs A (Welch' "$work/out" || fail "compare section: $(cat "$work/out")"
for f in points compare peak; do [[ -s $work/tables/$f.csv ]] || fail "report --csv wrote no $f.csv"; done
# To paste (issue 37): the same tables with what was measured on what, as Markdown or text.
expect_rc 0 "report as markdown" "$scalelab" report "$work/e.slab" --compare A B --format markdown
for line in '## Experiment' '- **Machine:** ' '- **PostgreSQL:** PostgreSQL ' '- **Runs:** ' '## tps by clients' \
            '| series | clients | n | mean | sd | ci low | ci high |' '## B vs A' '**Verdict:**'; do
  grep -qF -- "$line" "$work/out" || fail "markdown report lacks '$line': $(cat "$work/out")"
done
expect_rc 0 "report as text" "$scalelab" report "$work/e.slab" --format text
head -1 "$work/out" | grep -q '^Machine: ' || fail "text report starts with the machine: $(cat "$work/out")"
grep -q '^series  *clients  *n  *mean' "$work/out" || fail "text report's table: $(cat "$work/out")"
expect_rc 2 "report in an unknown format" "$scalelab" report "$work/e.slab" --format html
# "The same within 50%": every client count of two series of one machine is; a margin without
# --compare, or one that is not a %, is refused before anything is read.
"$scalelab" report "$work/e.slab" --compare A B --equivalence 50% | grep -q "within +/-50%" ||
  fail "report --equivalence 50% says nothing about the margin"
expect_rc 2 "equivalence without --compare" "$scalelab" report "$work/e.slab" --equivalence 2%
expect_rc 2 "equivalence not a %" "$scalelab" report "$work/e.slab" --compare A B --equivalence two
expect_rc 1 "USL on latency" "$scalelab" report "$work/e.slab" --metric latency_p95 --usl
grep -qF -- '--usl fits throughput (tps, logical_reads); latency_p95 is not one' "$work/out" || fail "USL on latency: $(cat "$work/out")"
# What the server ran: each point's statements, and B's against A's at one client count.
expect_rc 0 "report --statements" "$scalelab" report "$work/e.slab" --statements --clients 2
grep -qF 'A, 2 clients: 2 runs with statements' "$work/out" || fail "report --statements: $(cat "$work/out")"
grep -qF 'SELECT abalance FROM pgbench_accounts WHERE aid = $1' "$work/out" || fail "no select-only statement: $(cat "$work/out")"
grep -q 'B, 1 client' "$work/out" && fail "report --statements --clients 2 showed 1 client: $(cat "$work/out")"
expect_rc 0 "report --statements --compare" "$scalelab" report "$work/e.slab" --statements --compare A B --top 3
grep -qF 'B against A, 1 client: each statement' "$work/out" || fail "statements comparison: $(cat "$work/out")"
expect_rc 2 "--top without --statements" "$scalelab" report "$work/e.slab" --top 3
expect_rc 2 "--statements with --usl" "$scalelab" report "$work/e.slab" --statements --usl
expect_rc 0 "export" "$scalelab" export "$work/e.slab" --csv "$work/csv" --json "$work/e.json"
[[ $(($(wc -l <"$work/csv/runs.csv") - 1)) == 8 ]] || fail "runs.csv rows"
python3 -c "import json,sys; j=json.load(open('$work/e.json')); assert len(j['runs']) == 8 and j['provenance'] and 'password' not in json.dumps(j)" \
  || fail "export json"
# --json - writes to standard output (and no file named "-"); messages stay on stderr.
(cd "$work" && "$scalelab" export "$work/e.slab" --json - >"$work/stdout.json" 2>"$work/stderr") || fail "export --json -: $(cat "$work/stderr")"
[[ -e $work/- ]] && fail "export --json - wrote a file named -"
python3 -c "import json; j=json.load(open('$work/stdout.json')); assert len(j['runs']) == 8" || fail "export --json - output"
# Each run keeps its latency distribution: its histogram counts exactly its counted transactions,
# and each point's merged percentiles are exported beside the runs' (docs/sweeps.md).
python3 - "$work/csv" "$work/e.json" <<'PY' || fail "latency distributions: see above"
import csv, json, sys
d = sys.argv[1]
runs = {r["run_id"]: r for r in csv.DictReader(open(d + "/runs.csv"))}
counts = {}
for b in csv.DictReader(open(d + "/latency-histograms.csv")):
    assert float(b["bucket_low_ms"]) < float(b["bucket_high_ms"]), b
    counts[b["run_id"]] = counts.get(b["run_id"], 0) + int(b["count"])
completed = [i for i, r in runs.items() if r["status"] == "completed"]
assert sorted(counts) == sorted(completed), (sorted(counts), sorted(completed))
for i in completed:
    assert counts[i] == int(runs[i]["transactions"]), (i, counts[i], runs[i]["transactions"])
pct = list(csv.DictReader(open(d + "/latency-percentiles.csv")))
points = [p for p in pct if p["scope"] == "point"]
assert len(points) == 4 and all(p["runs"] == "2" for p in points), points
for p in pct:
    assert float(p["p50_ms"]) <= float(p["p99_ms"]) <= float(p["p99_99_ms"]) <= float(p["max_ms"]), p
j = json.load(open(sys.argv[2]))
assert all(r["latency_distribution"]["count"] == r["detail"]["transactions"] for r in j["runs"] if r["status"] == "completed")
# Statements: every completed run ran the select as often as it counted transactions (one in
# flight at the deadline per client ends after it), and the texts come with them.
select = [q for q, t in j["statement_texts"].items() if t == "SELECT abalance FROM pgbench_accounts WHERE aid = $1"]
assert len(select) == 1, j["statement_texts"]
st = [s for s in csv.DictReader(open(d + "/statements.csv")) if s["queryid"] == select[0]]
assert sorted(s["run_id"] for s in st) == sorted(completed), (st, completed)
for s in st:
    r = runs[s["run_id"]]
    assert int(r["transactions"]) <= int(s["calls"]) <= int(r["transactions"]) + int(r["clients"]), (s, r)
    assert s["query"] == j["statement_texts"][select[0]]
PY

# The scaling chart without a display.
expect_rc 0 "export png/svg headless" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --png "$work/chart.png" --svg "$work/chart.svg" --scale 2
[[ "$(head -c 8 "$work/chart.png" | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] || fail "chart.png is not a PNG"
grep -q '>A<\|>A ' "$work/chart.svg" && grep -q '>B<\|>B ' "$work/chart.svg" || fail "chart.svg does not name the series"

# The export draws the view its options describe: only series A, on a log2 axis, with the USL.
expect_rc 0 "export svg with view options" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --svg "$work/a.svg" --series A --log2 --usl --error-bars sd
grep -q '>A<' "$work/a.svg" || fail "a.svg does not draw A"
grep -q '>B<\|>B ' "$work/a.svg" && fail "a.svg draws series B, which --series left out"
expect_rc 1 "export an unknown series" "$scalelab" export "$work/e.slab" --png "$work/x.png" --series C
grep -qF -- "--series: no series named 'C'" "$work/out" || fail "unknown series: $(cat "$work/out")"
expect_rc 1 "unknown error-bar kind" "$scalelab" export "$work/e.slab" --png "$work/x.png" --error-bars range
grep -qF "unknown error-bar kind 'range'" "$work/out" || fail "error bars: $(cat "$work/out")"

# The ratio chart: B / A by clients, with its interval and a line at 1; refusals before writing.
expect_rc 0 "export a ratio svg" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --svg "$work/ratio.svg" --ratio A B --paired
grep -q '>B / A<' "$work/ratio.svg" && grep -q '1 = no difference' "$work/ratio.svg" || fail "ratio.svg lacks B / A or the line at 1"
grep -q 'confidence interval of the ratio (paired by round)' "$work/ratio.svg" || fail "ratio.svg title"
expect_rc 1 "ratio of an unknown series" "$scalelab" export "$work/e.slab" --png "$work/x.png" --ratio A C
grep -qF -- "--ratio: no series named 'C' (the series compared) in the experiment (it has: A, B)" "$work/out" || fail "ratio unknown: $(cat "$work/out")"
expect_rc 2 "ratio without a chart file" "$scalelab" export "$work/e.slab" --csv "$work/csv2" --ratio A B
grep -qF -- "--ratio draws the chart of a PNG or SVG" "$work/out" || fail "ratio without chart: $(cat "$work/out")"
[[ ! -e $work/csv2 ]] || fail "a refused export wrote its CSV"
expect_rc 2 "ratio with --series" "$scalelab" export "$work/e.slab" --png "$work/x.png" --ratio A B --series A
[[ ! -e $work/x.png ]] || fail "a refused export wrote x.png"

# Notes, in the file and in what is shared.
expect_rc 0 "note on the experiment" "$scalelab" note "$work/e.slab" "HEAD vs <patch>"
expect_rc 0 "note on a run" "$scalelab" note "$work/e.slab" --run "$first" "a backup ran"
expect_rc 1 "note on an unknown run" "$scalelab" note "$work/e.slab" --run 99999 "x"
grep -q "has no run 99999" "$work/out" || fail "unknown run note: $(cat "$work/out")"
expect_rc 0 "notes shown" "$scalelab" note "$work/e.slab"
grep -qx "HEAD vs <patch>" "$work/out" && grep -qx "run $first: a backup ran" "$work/out" || fail "notes: $(cat "$work/out")"
expect_rc 0 "HTML report" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --html "$work/e.html" --usl
for part in '<h2>Comparison</h2>' '<h2>Universal Scalability Law</h2>' '<h2>Peaks</h2>' '<h3>Machine</h3>' '<h3>PostgreSQL</h3>' \
            'HEAD vs &lt;patch&gt;' 'a backup ran' '<svg' 'tps ratio B / A by clients (Welch)' \
            'latency distribution at 1 client: B against A' 'latency distribution at 2 clients: B against A' \
            'p99 latency of each round by clients, box plots' '<h2>Statements</h2>' 'B against A at 2 clients'; do
  grep -qF -- "$part" "$work/e.html" || fail "the HTML report lacks $part"
done
grep -q '<script\|src=' "$work/e.html" && fail "the HTML report is not self-contained"
# The latency distribution at one client count as a chart file; a count without one is refused
# with the counts there are, and the scaling chart's view options with it.
expect_rc 0 "distribution svg" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --svg "$work/dist.svg" --distribution 2
grep -q '>A<\|>A ' "$work/dist.svg" && grep -q '>B<\|>B ' "$work/dist.svg" && grep -q 'p99' "$work/dist.svg" || fail "dist.svg lacks the series or the percentiles"
expect_rc 1 "distribution at a count not run" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --svg "$work/x.svg" --distribution 3
grep -qF "no counted run of the series drawn has a latency histogram at 3 clients in $work/e.slab; these client counts have: 1, 2" "$work/out" ||
  fail "distribution at 3: $(cat "$work/out")"
expect_rc 2 "distribution with --log2" "$scalelab" export "$work/e.slab" --svg "$work/x.svg" --distribution 2 --log2
[[ ! -e $work/x.svg ]] || fail "a refused distribution wrote a file"
# Each round's p99 as box plots by clients; a percentile no run keeps is refused as usage.
expect_rc 0 "rounds svg" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --svg "$work/rounds.svg" --rounds p99
grep -q 'p99 latency of each round' "$work/rounds.svg" && grep -q '>B<\|>B ' "$work/rounds.svg" || fail "rounds.svg lacks its title or series"
expect_rc 2 "rounds of p98" "$scalelab" export "$work/e.slab" --svg "$work/x.svg" --rounds p98
grep -qF "'p98' is not a percentile ScaleLab keeps per run: p50, p90, p95, p99, p99.9, max" "$work/out" || fail "rounds p98: $(cat "$work/out")"
expect_rc 2 "rounds with --distribution" "$scalelab" export "$work/e.slab" --svg "$work/x.svg" --rounds p99 --distribution 2
[[ ! -e $work/x.svg ]] || fail "a refused rounds chart wrote a file"

# pgbench's own output, produced now by the installed pgbench, imported as a series.
conninfo=$("$scalelab" server status --data "$data" --conninfo)
pgbench=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
"$pgbench" "$conninfo" -S -c 2 -j 1 -T 2 -P 1 >"$work/pgbench.txt" 2>&1 || fail "pgbench did not run: $(cat "$work/pgbench.txt")"
expect_rc 1 "import into an existing file without --append" "$scalelab" import "$work/pgbench.txt" --series pgbench -o "$work/e.slab"
grep -qF -- "e.slab exists: add --append" "$work/out" || fail "append message: $(cat "$work/out")"
expect_rc 0 "import pgbench" "$scalelab" import "$work/pgbench.txt" --series pgbench --append -o "$work/e.slab"
expect_rc 1 "the same file twice" "$scalelab" import "$work/pgbench.txt" --series pgbench --append -o "$work/e.slab"
grep -qF -- "already (the same content); import it again on purpose with --again" "$work/out" || fail "twice: $(cat "$work/out")"
grep -q ' pgbench .* completed' <<<"$("$scalelab" runs "$work/e.slab")" || fail "imported run missing: $("$scalelab" runs "$work/e.slab")"
# The source machine's cores travel with imported runs and become chart markers.
expect_rc 0 "import with --cores" "$scalelab" import "$work/pgbench.txt" --series other-box --cores 2 --pus 4 -o "$work/m.slab"
expect_rc 0 "export svg of the import" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/m.slab" --svg "$work/m.svg"
grep -q "imported: 2 cores" "$work/m.svg" || fail "no marker for the import's machine in the SVG"
grep -q 'this machine' "$work/m.svg" && fail "an import from another machine got this machine's markers"
# Another experiment's series beside this one's: named "LABEL [FILE]", nothing written to either.
expect_rc 0 "report with another experiment" "$scalelab" report "$work/e.slab" --with "$work/m.slab" --compare A "other-box [m.slab]"
grep -q '^other-box \[m.slab\] vs A' "$work/out" || fail "cross-file comparison: $(cat "$work/out")"
expect_rc 0 "HTML report with another experiment" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$scalelab" export "$work/e.slab" --with "$work/m.slab" --html "$work/both.html"
grep -qF 'other-box [m.slab]' "$work/both.html" && grep -qF '<h3>[m.slab] Experiment</h3>' "$work/both.html" || fail "both.html lacks m.slab's series or overview"
"$scalelab" runs "$work/e.slab" | grep -q 'other-box' && fail "adding m.slab's series wrote into e.slab"
expect_rc 2 "--with with --csv" "$scalelab" export "$work/e.slab" --with "$work/m.slab" --csv "$work/with-csv"
grep -qF -- "--with adds series to the PNG, SVG and HTML only; --csv writes $work/e.slab's own runs" "$work/out" ||
  fail "--with --csv message: $(cat "$work/out")"
[[ ! -e "$work/with-csv" ]] || fail "a refused export wrote $work/with-csv"
printf 'transaction type: x\nnumber of clients: two\n' >"$work/broken.txt"
expect_rc 1 "malformed import" "$scalelab" import "$work/broken.txt" --series x -o "$work/new.slab"
[[ ! -e "$work/new.slab" ]] || fail "a failed import left $work/new.slab behind"
grep -q "broken.txt:2: 'number of clients' is not a number" "$work/out" || fail "import error: $(cat "$work/out")"

# The window with a plan it refuses, or a file that is not an experiment: a message and exit 1,
# never an abort from an exception.
printf '{"version": 1, "series": [{"label": "A", "placement": "smt-halfway"}], "clients": [1], "duration": 1}' >"$work/bad-plan.json"
expect_rc 1 "gui with a refused plan" env QT_QPA_PLATFORM=offscreen "$scalelab" gui --sweep "$work/bad-plan.json" --output "$work/g.slab"
grep -qF "unknown placement 'smt-halfway'" "$work/out" || fail "gui plan message: $(cat "$work/out")"
# Issue 32.2: a plan the parser takes but this machine refuses (64 cores on a small machine)
# took no road at all: nothing printed, nothing started, and --screenshots waited for ever.
printf '{"version": 1, "series": [{"label": "A", "placement": "cores:4096"}], "clients": [1], "duration": 1}' >"$work/big-plan.json"
for extra in "" "--screenshots $work/shots"; do
  # shellcheck disable=SC2086
  expect_rc 1 "gui with a plan this machine refuses $extra" timeout 60 env QT_QPA_PLATFORM=offscreen "$scalelab" gui \
    --sweep "$work/big-plan.json" --output "$work/g.slab" $extra
  grep -qF "asks for 4096 cores" "$work/out" || fail "gui machine refusal: $(cat "$work/out")"
done
grep -q 'terminate called' "$work/out" && fail "gui aborted: $(cat "$work/out")"
# --screenshots takes every page, the Setup form scrolled and the Ratio chart (issue 32).
expect_rc 0 "gui screenshots" timeout 120 env QT_QPA_PLATFORM=offscreen "$scalelab" gui --open "$work/e.slab" --size 1024x700 \
  --screenshots "$work/pages"
for shot in setup live results overview setup-scrolled results-ratio; do
  [[ -s $work/pages/$shot.png ]] || fail "gui --screenshots wrote no $shot.png: $(cat "$work/out")"
done
expect_rc 1 "gui with a file that is no experiment" env QT_QPA_PLATFORM=offscreen "$scalelab" gui --open "$work/bad-plan.json"
grep -q 'not a ScaleLab experiment file' "$work/out" || fail "gui --open message: $(cat "$work/out")"

# A TPROC-C sweep (workload.kind "tprocc"): the tables loaded once, at data.warehouses, on the
# embedded server; NOPM and TPM as the points' metrics; each run records its warehouses.
cat >"$work/tprocc.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"}, "workload": {"kind": "tprocc", "mode": "prepared"},
 "series": [{"label": "A"}], "clients": [2, 3], "threads": 1, "duration": 1.5, "repetitions": 2, "seed": 5,
 "data": {"warehouses": 1}}
JSON
expect_rc 0 "tprocc sweep" "$scalelab" sweep "$work/tprocc.json" -o "$work/tprocc.slab"
[[ $(grep -c "TPROC-C's tables, 1 warehouse, loaded in" "$work/out") == 1 ]] || fail "tprocc load said once: $(cat "$work/out")"
[[ $(count_runs "$work/tprocc.slab") == 4 ]] || fail "tprocc runs: $("$scalelab" runs "$work/tprocc.slab" 2>&1)"
"$scalelab" report "$work/tprocc.slab" --metric nopm >"$work/out" 2>&1 || fail "report --metric nopm: $(cat "$work/out")"
grep -Eq '^A +2 +2 +[0-9]+\.[0-9]+' "$work/out" && grep -Eq '^A +3 +2 +[0-9]+\.[0-9]+' "$work/out" || fail "nopm points: $(cat "$work/out")"
"$scalelab" report "$work/tprocc.slab" --metric tpm >"$work/out" 2>&1 || fail "report --metric tpm: $(cat "$work/out")"
grep -Eq '^A +2 +2 +[0-9]+\.[0-9]+' "$work/out" || fail "tpm points: $(cat "$work/out")"
"$scalelab" report "$work/e.slab" --metric nopm >"$work/out" 2>&1
grep -Eq '^A +[0-9]+ +[0-9]+ +[0-9]' "$work/out" && fail "a pgbench sweep must have no NOPM points: $(cat "$work/out")"
rm -rf "$work/tprocc-csv"
expect_rc 0 "tprocc export" "$scalelab" export "$work/tprocc.slab" --csv "$work/tprocc-csv"
python3 - "$work/tprocc-csv/runs.csv" <<'PY' || fail "tprocc runs.csv: $(cat "$work/tprocc-csv/runs.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4 and all(float(r["nopm"]) > 0 and float(r["tpm"]) > float(r["nopm"]) for r in rows), rows
PY
# Again on the same cluster: the tables are there at 1 warehouse, so nothing is loaded; at 2,
# they are loaded again (the embedded server is ScaleLab's own).
expect_rc 0 "tprocc sweep again" "$scalelab" sweep "$work/tprocc.json" -o "$work/tprocc2.slab"
grep -q "TPROC-C's tables" "$work/out" && fail "tables reloaded though they fit: $(cat "$work/out")"
sed 's/"warehouses": 1/"warehouses": 2/; s/"clients": \[2, 3\]/"clients": [2]/; s/"repetitions": 2/"repetitions": 1/' "$work/tprocc.json" >"$work/tprocc-2w.json"
expect_rc 0 "tprocc sweep at 2 warehouses" "$scalelab" sweep "$work/tprocc-2w.json" -o "$work/tprocc3.slab"
grep -q "TPROC-C's tables, 2 warehouses, loaded in" "$work/out" || fail "tables at 2 warehouses: $(cat "$work/out")"
python3 - "$work/tprocc3.slab" <<'PY' || fail "data_warehouses in the record"
import json, sqlite3, sys
details = [json.loads(d) for (d,) in sqlite3.connect(sys.argv[1]).execute("SELECT detail FROM runs")]
assert details and all(d["data_warehouses"] == 2 and d["script_set"] == "tprocc" for d in details), details
PY

if grep -rl --binary-files=text "$PGPASSWORD" "$work" >"$work/leaks" 2>/dev/null; then
  fail "files hold PGPASSWORD: $(cat "$work/leaks")"
fi
finish "sweep CLI"
