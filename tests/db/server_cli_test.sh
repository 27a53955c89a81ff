#!/usr/bin/env bash
# `scalelab server` as a user types it: start, connect with psql, reuse, stop, refuse.
# Usage: server_cli_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
require_server

# Live processes (not zombies) whose working directory is the data directory: the cluster's.
cluster_processes() {
  for p in /proc/[0-9]*; do
    [[ "$(readlink "$p/cwd" 2>/dev/null)" == "$data" ]] || continue
    [[ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" == Z ]] && continue
    echo "${p#/proc/}"
  done
}

expect_rc 2 "unknown subcommand" "$scalelab" server frobnicate
expect_rc 2 "bad port" "$scalelab" server start --data "$data" --port notaport
expect_rc 1 "setting without '='" "$scalelab" server start --data "$data" --set fsync
grep -q "server setting 'fsync' has no '='" "$work/out" || fail "setting message: $(cat "$work/out")"
[[ ! -e $data ]] || fail "a bad setting must be refused before initdb"

out=$("$scalelab" server start --data "$data" --set work_mem=32MB 2>"$work/err") || fail "start: $(cat "$work/err")"
grep -q '^server:   started' <<<"$out" || fail "start did not say started: $out"
conninfo=$(sed -n 's/^conninfo: //p' <<<"$out")
pid=$(sed -n 's/^pid: *//p' <<<"$out")
grep -q '^PostgreSQL' <<<"$(psql "$conninfo" -Atc 'select version()')" || fail "psql could not connect with: $conninfo"
[[ "$(psql "$conninfo" -Atc 'show work_mem')" == 32MB ]] || fail "--set work_mem=32MB not in effect"

out=$("$scalelab" server start --data "$data" 2>&1) || fail "second start failed: $out"
grep -q 'already running (reused)' <<<"$out" || fail "second start did not reuse: $out"
[[ "$(sed -n 's/^pid: *//p' <<<"$out")" == "$pid" ]] || fail "second start changed the postmaster pid"
[[ "$("$scalelab" server status --data "$data" --conninfo)" == "$conninfo" ]] || fail "status --conninfo differs"

expect_rc 0 "stop" "$scalelab" server stop --data "$data"
grep -q "stopped the server in $data" "$work/out" || fail "stop message: $(cat "$work/out")"
[[ -z "$(cluster_processes)" ]] || fail "postgres processes left after stop: $(cluster_processes)"
expect_rc 1 "status --conninfo of a stopped server" "$scalelab" server status --data "$data" --conninfo
grep -q '^server:   stopped' <<<"$("$scalelab" server status --data "$data")" || fail "status does not say stopped"

mkdir -p "$work/plain" && echo precious >"$work/plain/notes.txt"
expect_rc 1 "start on a plain non-empty directory" "$scalelab" server start --data "$work/plain"
grep -q "is not empty and is not a PostgreSQL data directory" "$work/out" || fail "plain dir message: $(cat "$work/out")"

# Issue 60.3: pg_ctl hands the data directory to /bin/sh inside double quotes; a name with
# $(...) or backquotes ran a command as postgres. Refused, before anything runs.
for name in 'd`id>'"$work"'/ran-backquote`' 'd$(id>'"$work"'/ran-dollar)' 'd"x' 'd\x' $'d\nx'; do
  expect_rc 1 "a data directory named $name" "$scalelab" server start --data "$work/$name"
  grep -q "the data directory .* holds .*: PostgreSQL's pg_ctl passes it through /bin/sh" "$work/out" ||
    fail "shell character message for $name: $(cat "$work/out")"
done
[[ ! -e $work/ran-backquote && ! -e $work/ran-dollar ]] || fail "a data directory's name ran a command"

finish "server CLI"
