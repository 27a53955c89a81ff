#!/usr/bin/env bash
# The experiment file's disk fails under a sweep: full, read-only, or the file deleted while
# it is written. Each gets a clear error that says what to do, and every completed run stays
# intact (then --resume finishes the sweep). Needs root to mount a small tmpfs; elsewhere it
# skips (77), except under CI=true, where it fails.
# Usage: file_faults_test.sh PATH/TO/scalelab
set -uo pipefail
scalelab=$1
source "$(dirname "$0")/../support/cli_helpers.sh"
small=$work/small
cleanup_extra() {
  [[ -n "${sweep_pid:-}" ]] && kill -9 "$sweep_pid" 2>/dev/null
  umount "$small" 2>/dev/null
}
require_server
mkdir -p "$small"
if ! mount -t tmpfs -o size=3m tmpfs "$small" 2>"$work/mount.err"; then
  echo "cannot mount a small tmpfs (needs root): $(cat "$work/mount.err")"
  [[ "${CI:-}" == true ]] && exit 1
  exit 77
fi
count_runs() { "$scalelab" runs "$1" 2>/dev/null | awk 'NR > 1 && $6 == "completed"' | wc -l; }
echo "SELECT 1;" >"$work/one.sql"
cat >"$work/plan.json" <<JSON
{"version": 1, "target": {"data_dir": "$data"},
 "workload": {"files": "$work/one.sql", "vacuum": "none"},
 "series": [{"label": "A"}], "clients": "1-4 +1", "threads": 1, "duration": 1,
 "sample_interval": 0.1, "seed": 9}
JSON

# Starts the sweep into $1 in the background and returns once its first run is stored.
start_sweep() {
  "$scalelab" sweep "$work/plan.json" -o "$1" -q >"$work/sweep.log" 2>&1 &
  sweep_pid=$!
  for _ in $(seq 1 600); do
    [[ -s $1 && $(count_runs "$1") -ge 1 ]] && return 0
    sleep 0.1
  done
  fail "the sweep into $1 stored no run: $(cat "$work/sweep.log")"
}
finish_sweep() { wait "$sweep_pid"; local rc=$?; sweep_pid=; return $rc; }

# 1. Disk full: the run that cannot be stored is named with what it measured; the runs before
#    it are intact, and --resume completes the sweep once there is room.
start_sweep "$small/full.slab"
dd if=/dev/zero of="$small/fill" bs=4k >/dev/null 2>&1
finish_sweep; rc=$?
[[ $rc == 1 ]] || fail "disk full: exit $rc, expected 1; output: $(cat "$work/sweep.log")"
grep -q 'could not be stored: .*database or disk is full. Every run stored before it is intact' "$work/sweep.log" ||
  fail "disk full message: $(cat "$work/sweep.log")"
grep -q 'completed, [0-9.]* tps' "$work/sweep.log" || fail "disk full: what the lost run measured: $(cat "$work/sweep.log")"
grep -q -- "-o $small/full.slab --resume" "$work/sweep.log" || fail "disk full: resume hint: $(cat "$work/sweep.log")"
stored=$(count_runs "$small/full.slab")
[[ $stored -ge 1 && $stored -lt 4 ]] || fail "disk full: $stored completed runs readable, expected 1 to 3"
# A new experiment on the full disk: refused, and nothing is left behind.
expect_rc 1 "create on a full disk" "$scalelab" sweep "$work/plan.json" -o "$small/new.slab"
grep -q "cannot create $small/new.slab: .*full" "$work/out" || fail "create on a full disk: $(cat "$work/out")"
ls "$small"/new.slab* >/dev/null 2>&1 && fail "a failed create left $(ls "$small"/new.slab*)"
rm -f "$small/fill"
# Issue 31.15: with 16 KB left, a write says the disk is full, never just "disk I/O error".
avail=$(df --output=avail -B1 "$small" | tail -1)
fallocate -l $((avail - 16384)) "$small/fill" || fail "cannot leave 16 KB free"
expect_rc 1 "a long note with 16 KB free" "$scalelab" note "$small/full.slab" "$(head -c 100000 /dev/zero | tr '\0' x)"
{ grep -q 'full' "$work/out" && ! grep -q 'I/O error' "$work/out"; } || fail "16 KB free: $(cat "$work/out")"
rm -f "$small/fill"
expect_rc 0 "resume after disk full" "$scalelab" sweep "$work/plan.json" -o "$small/full.slab" --resume
[[ $(count_runs "$small/full.slab") == 4 ]] || fail "after resume: $(count_runs "$small/full.slab") completed runs, expected 4"

# 2. The file deleted during the sweep: written again with every run, the sweep stops with a
#    resume hint (before, the sweep ended "written" with the file and all its runs gone).
start_sweep "$small/gone.slab"
rm "$small/gone.slab"
finish_sweep; rc=$?
[[ $rc == 1 ]] || fail "deleted file: exit $rc, expected 1; output: $(cat "$work/sweep.log")"
grep -q "gone.slab was deleted while ScaleLab was writing it; ScaleLab wrote it again to $small/gone.slab with all [0-9]* runs" \
  "$work/sweep.log" || fail "deleted file message: $(cat "$work/sweep.log")"
[[ $(count_runs "$small/gone.slab") -ge 2 ]] || fail "deleted file: $(count_runs "$small/gone.slab") runs in the rewritten file"
expect_rc 0 "resume after the file was deleted" "$scalelab" sweep "$work/plan.json" -o "$small/gone.slab" --resume
[[ $(count_runs "$small/gone.slab") == 4 ]] || fail "after resume: $(count_runs "$small/gone.slab") completed runs, expected 4"

# 3. A read-only file system: writing is refused before anything runs, reading works.
mount -o remount,ro "$small" || fail "cannot remount read-only"
expect_rc 1 "create on a read-only file system" "$scalelab" sweep "$work/plan.json" -o "$small/ro.slab"
grep -q "cannot create $small/ro.slab: $small is on a read-only file system" "$work/out" || fail "read-only create: $(cat "$work/out")"
expect_rc 1 "resume on a read-only file system" "$scalelab" sweep "$work/plan.json" -o "$small/full.slab" --resume
grep -q "cannot write $small/full.slab: $small is on a read-only file system; it can still be read" "$work/out" ||
  fail "read-only resume: $(cat "$work/out")"
expect_rc 0 "runs on a read-only file system" "$scalelab" runs "$small/full.slab"
[[ $(awk 'NR > 1 && $6 == "completed"' "$work/out" | wc -l) == 4 ]] || fail "read-only runs: $(cat "$work/out")"
expect_rc 0 "report on a read-only file system" "$scalelab" report "$small/full.slab"
mount -o remount,rw "$small"

# 4. Issue 31.12: a file the reader cannot write (another user's 0644 file in a directory of its
# owner, or one's own file in a 0555 directory) is read, never called damaged. As the
# unprivileged `nobody` (root writes anything).
shared=$work/shared; mine=$work/mine
mkdir -p "$shared" "$mine"
cp "$small/full.slab" "$shared/theirs.slab"; chmod 644 "$shared/theirs.slab"; chmod 755 "$shared"
cp "$small/full.slab" "$mine/own.slab"; chown -R nobody "$mine"; chmod 555 "$mine"
for f in "$shared/theirs.slab" "$mine/own.slab"; do
  for cmd in runs report; do
    expect_rc 0 "$cmd of $f as nobody" runuser -u nobody -- "$scalelab" $cmd "$f"
    grep -q "damaged" "$work/out" && fail "$f called damaged: $(cat "$work/out")"
  done
  [[ $(runuser -u nobody -- "$scalelab" runs "$f" 2>/dev/null | awk 'NR > 1 && $6 == "completed"' | wc -l) == 4 ]] ||
    fail "$f: not every run read as nobody"
  expect_rc 1 "a note on $f as nobody" runuser -u nobody -- "$scalelab" note "$f" "mine now"
  grep -q "cannot write $f: " "$work/out" || fail "note on $f: $(cat "$work/out")"
  [[ ! -e $f-shm && ! -e $f-wal ]] || fail "reading $f left -shm or -wal files"
done
chmod 755 "$mine"

finish file_faults
