#!/usr/bin/env bash
# `scalelab topology` on a synthetic machine prints exactly the reviewed table in tests/data,
# and refuses bad input with exit 1 (bad description) or 2 (usage).
set -uo pipefail
scalelab=$1 data=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

diff -u "$data/topology-2x4x2.txt" <("$scalelab" topology --synthetic "pack:2 core:4 pu:2") || fail "table differs"
"$scalelab" topology >/dev/null || fail "the live topology does not print"
# A big machine's long PU lists stay apart: at least two spaces between columns. (Read the whole
# output first: `grep -q` on a pipe may exit before scalelab has written, and pipefail then
# turns scalelab's SIGPIPE into a failure.)
big=$("$scalelab" topology --synthetic "pack:2 core:16 pu:2")
grep -q '^  cores:16  *0,2,4,.*,28,30  \+0,2,4,.*,28,30  \+32-63$' <<<"$big" \
  || fail "columns run together: $(grep 'cores:16 ' <<<"$big")"
out=$("$scalelab" topology --synthetic "pack:two" 2>&1); rc=$?
[[ $rc == 1 && $out == *"is not a synthetic topology hwloc understands"* ]] || fail "bad synthetic: rc=$rc $out"
"$scalelab" topology --synthetic "pack:1" --xml x.xml >/dev/null 2>&1; rc=$?
[[ $rc == 2 ]] || fail "--synthetic with --xml: rc=$rc"
out=$("$scalelab" topology --xml /nonexistent.xml 2>&1); rc=$?
[[ $rc == 1 && $out == *"cannot load the hwloc XML topology /nonexistent.xml"* ]] || fail "missing xml: rc=$rc $out"

if [[ $failures -gt 0 ]]; then echo "$failures check(s) failed"; exit 1; fi
echo "topology CLI: all checks passed"
