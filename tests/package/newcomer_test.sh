#!/usr/bin/env bash
# The README's first command as a newcomer meets it (issue 65): in a clean Debian 12 root
# (debootstrap, from the mirror this machine's apt uses) with PostgreSQL 15 already there, a
# copy of this source tree runs the command exactly as the README writes it, and reaches
# ScaleLab's own "no display" message (exit 1: there is no display in the root). None of the
# test set's packages (`scripts/install-deps --list test`, beyond the run set) may have been
# installed. It prints how long each part took: that figure is the README's.
# Needs root (debootstrap, chroot). Without it: skipped (77), except under CI=true.
# Usage: tests/package/newcomer_test.sh
set -uo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

source "$source_dir/tests/package/clean-root.sh"
clean_root_begin "newcomer test" debootstrap

# The README's first command: the line under its comment in the first sh block.
command1=$(awk '/^# install what is missing, build, and run ScaleLab$/ {getline; print; exit}' "$source_dir/README.md")
[[ -n $command1 ]] || { fail "no first command in README.md (the line under '# install what is missing, build, and run ScaleLab')"; exit 1; }
echo "newcomer test: the README's first command: $command1"

make_clean_root "$root" "newcomer test" || exit 1
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

# The machine the issue describes: PostgreSQL 15 is there already (and what apt brings with it).
started=$(date +%s)
if ! { in_root apt-get update -q && in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql-15; } >"$work/apt.log" 2>&1; then
  tail -30 "$work/apt.log"
  fail "apt-get install postgresql-15 in the clean root"
  exit 1
fi
echo "newcomer test: PostgreSQL 15 installed beforehand in $(($(date +%s) - started)) s (not counted)"
before=$(in_root dpkg-query -W -f='${Package}\n' | wc -l)

# A copy of this tree as a clone has it (tracked files and new ones git does not ignore).
mkdir -p "$root/root/scalelab"
(cd "$source_dir" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$root/root/scalelab" ||
  { fail "copying the source tree"; exit 1; }

# The command as written, each part's start time-stamped (bash -x with the time in PS4).
started=$(date +%s)
in_root bash -c "cd /root/scalelab && PS4='+ \$(date +%s) ' && set -x && $command1" >"$work/command1.log" 2>&1
rc=$?
took=$(($(date +%s) - started))
if [[ $rc != 1 ]] || ! grep -q '^scalelab: no display for the desktop window' "$work/command1.log"; then
  tail -40 "$work/command1.log"
  fail "the README's first command ended with exit $rc without ScaleLab's no-display message (log above)"
fi
# Where the time went: from each traced part's start to the next's.
grep -E '^\+ [0-9]+ (\./scripts/install-deps|cmake --preset|cmake --build|\./build/release/app/scalelab)' "$work/command1.log" |
  awk -v end="$(date +%s)" '{t[NR] = $2; $1 = $2 = ""; what[NR] = $0} END {t[NR + 1] = end; for (i = 1; i <= NR; i++) printf "newcomer test:   %4d s %s\n", t[i + 1] - t[i], what[i]}'
after=$(in_root dpkg-query -W -f='${Package}\n' | wc -l)
steps=$(grep -cE '^\[[0-9]+/[0-9]+\]' "$work/command1.log")
echo "newcomer test: the README's first command took $took s ($((after - before)) packages installed, $steps build steps)"

# None of the test tools was asked for. One that a package of the run set depends on comes as
# apt's automatic dependency (python3: linux-perf's perf scripts need it) and is said so.
run_set=$(bash "$source_dir/scripts/install-deps" --list run)
manual=$(in_root apt-mark showmanual)
for p in $(bash "$source_dir/scripts/install-deps" --list test); do
  grep -qx "$p" <<<"$run_set" && continue
  status=$(in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
  [[ "$status" == "install ok installed" ]] || continue
  if grep -qx "$p" <<<"$manual"; then
    fail "a test tool was installed by the first command: $p"
  else
    echo "newcomer test: $p is there as apt's automatic dependency, not asked for (needed by: $(in_root apt-cache rdepends --installed --no-recommends --no-suggests --no-enhances "$p" | sed -n '3,$p' | tr -d ' |' | paste -sd, -))"
  fi
done
for built in tests/unit/unit_tests bench/sample_cost; do
  [[ -e $root/root/scalelab/build/release/$built ]] && fail "the release build built $built"
done
for f in app/scalelab man/scalelab.1.gz completions/scalelab; do
  [[ -s $root/root/scalelab/build/release/$f ]] || fail "the release build lacks $f"
done

echo "newcomer test: $failures failed"
[[ $failures == 0 ]]
