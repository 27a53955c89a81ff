#!/usr/bin/env bash
# No include runs from a lower layer of core/ to a higher one (scripts/check-layers); and the
# check can fail: a planted upward include and a folder with no layer are each named.
set -u
check=$1 core=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
out=$("$check" "$core" 2>&1) || fail "an include runs upward: $out"
work=$(mktemp -d /tmp/scalelab-layers-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/core/store" "$work/core/sweep" "$work/core/util"
printf '#pragma once\n#include "util/Error.h"\n\n#include "sweep/SweepRunner.h"\n' >"$work/core/store/Planted.h"
out=$("$check" "$work/core" 2>&1) && fail "a planted upward include passed"
grep -qF 'core/store/Planted.h:4: store includes sweep, a higher layer' <<<"$out" || fail "not named: $out"
rm "$work/core/store/Planted.h"
mkdir -p "$work/core/newthing"
out=$("$check" "$work/core" 2>&1) && fail "a folder with no layer passed"
grep -qF 'core/newthing/: a folder with no layer' <<<"$out" || fail "not named: $out"
[[ $failures == 0 ]] && echo "layers: ok"
exit $((failures > 0))
