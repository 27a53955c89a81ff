#!/usr/bin/env bash
# The Debian package as a user gets it (docs/packaging.md): cpack makes it from a build
# directory; lintian finds no error and no warning in it; its AppStream metadata and desktop
# entry validate; then it is installed into a clean Debian 12 root (debootstrap, from the
# mirror this machine's apt uses) with apt resolving its dependencies, and there `scalelab
# --version`, `scalelab topology` and a 2-second `scalelab run` on the embedded server work,
# and its manual pages, completions, icons and example plans are where Debian looks for them.
# Needs root (debootstrap, chroot). Without it: skipped (77), except under CI=true.
# Usage: tests/package/package_test.sh BUILD_DIR
set -uo pipefail
build=$(realpath "${1:?usage: package_test.sh BUILD_DIR}")
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
failures=0
checks=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { checks=$((checks + 1)); }

source "$source_dir/tests/package/clean-root.sh"
clean_root_begin "package test" debootstrap lintian

# 1. The package.
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack"; exit 1; }
version=$(sed -n 's/^project(ScaleLab VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
deb=$work/scalelab_${version}_$(dpkg --print-architecture).deb
[[ -f $deb ]] || { fail "no $deb: $(ls "$work")"; exit 1; }
ok
control=$(dpkg-deb -f "$deb")
grep -q '^Depends: postgresql-15 | postgresql-16 | postgresql-17 | postgresql, .*libqt6widgets6' <<<"$control" ||
  fail "Depends: the server and the libraries dpkg-shlibdeps found: $control"
grep -q '^Recommends: openssh-client' <<<"$control" || fail "Recommends: $control"
grep -q '^Suggests: linux-perf, postgresql-15-pg-wait-sampling |' <<<"$control" || fail "Suggests: $control"
ok

# 2. lintian: errors and warnings fail; the info tags left are listed in docs/packaging.md.
lintian --display-info "$deb" >"$work/lintian.txt" 2>&1
grep -E '^[EW]: ' "$work/lintian.txt" && fail "lintian errors or warnings (above)"
grep -E '^I: ' "$work/lintian.txt" | sed 's/^/lintian info: /'
ok
dpkg-deb -x "$deb" "$work/files"
appstreamcli validate --no-net "$work/files/usr/share/metainfo/org.scalelab.scalelab.metainfo.xml" >"$work/appstream.txt" 2>&1 ||
  fail "appstreamcli validate: $(cat "$work/appstream.txt")"
ok

# 3. A clean Debian 12 root, from the mirror and suites this machine's apt uses.
make_clean_root "$root" "package test" || exit 1
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
started=$(date +%s)
if ! { in_root apt-get update -q && in_root apt-get install -y -q "/tmp/$(basename "$deb")"; } >"$work/apt.log" 2>&1; then
  tail -30 "$work/apt.log"
  fail "apt-get install of the package in a clean root"
  exit 1
fi
echo "package test: apt-get install took $(($(date +%s) - started)) s"
ok

# 4. It runs there.
in_root scalelab --version >"$work/out" 2>&1 || fail "scalelab --version: $(cat "$work/out")"
grep -q "^ScaleLab $version" "$work/out" || fail "--version: $(cat "$work/out")"
grep -q '^server: PostgreSQL 1[5-9]' "$work/out" || fail "--version finds the server the package pulled in: $(cat "$work/out")"
ok
in_root scalelab topology >"$work/out" 2>&1 || fail "scalelab topology: $(cat "$work/out")"
grep -qi 'smt-on' "$work/out" || fail "topology lists the placements: $(cat "$work/out")"
ok
mkdir -p "$root/tmp/run" && chmod 755 "$root/tmp/run"
if in_root scalelab run --data /tmp/run/cluster -c 2 -T 2 -S >"$work/out" 2>&1; then
  grep -q '^tps = [0-9.]* (without initial connection time)' "$work/out" || fail "run report: $(cat "$work/out")"
else
  fail "scalelab run on the embedded server: $(cat "$work/out")"
fi
in_root scalelab server stop --data /tmp/run/cluster >/dev/null 2>&1
ok
for f in /usr/share/man/man1/scalelab.1.gz /usr/share/man/man1/scalelab-sweep.1.gz \
  /usr/share/bash-completion/completions/scalelab /usr/share/zsh/vendor-completions/_scalelab \
  /usr/share/applications/scalelab.desktop /usr/share/metainfo/org.scalelab.scalelab.metainfo.xml \
  /usr/share/icons/hicolor/48x48/apps/scalelab.png /usr/share/icons/hicolor/scalable/apps/scalelab.svg \
  /usr/share/scalelab/plans/smt-on-off.json /usr/share/doc/scalelab/copyright /usr/share/doc/scalelab/changelog.gz \
  /usr/share/doc/scalelab/README.md /usr/share/doc/scalelab/packaging.md; do
  [[ -s $root$f ]] || fail "not installed: $f"
done
ok
zcat "$root/usr/share/man/man1/scalelab-run.1.gz" | grep -q -- 'metrics\\-listen\|metrics-listen' || fail "scalelab-run(1) lacks --metrics-listen"
ok

echo "package test: $checks checks, $failures failed"
[[ $failures == 0 ]]
