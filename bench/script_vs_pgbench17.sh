#!/usr/bin/env bash
# The script_vs_pgbench comparisons (tests/db/script_vs_pgbench_test.sh) against pgbench 17,
# the pgbench Debian 13 ships, where the test suite compares with Debian 12's pgbench 15.
# Debian 13's libc is newer than Debian 12's, so pgbench 17 runs with its own loader and
# libraries from a Debian 13 root made once by debootstrap (root, network, ~300 MB).
#   bench/script_vs_pgbench17.sh BUILD_DIR [ROOT]      (ROOT default: /tmp/trixie-pg17)
# Prints each comparison that differs, and a summary line.
set -uo pipefail
build=$(realpath "${1:?usage: bench/script_vs_pgbench17.sh BUILD_DIR [ROOT]}")
root=${2:-/tmp/trixie-pg17}  # made once by this script (a marker says so), reused after
cd "$(dirname "$0")/.."
# The root is used as root: only a directory this script made (it leaves a marker in it) is
# reused; anything else at that name, such as /tmp itself or a link planted in /tmp, is refused.
marker=$root/.scalelab-pgbench17-root
if [[ -L $root || ( -e $root && ( ! -O $root || ! -f $marker || -L $marker ) ) ]]; then
  echo "$root exists and is not a root this script made: give another ROOT"; exit 1
fi
if [[ ! -e $root ]]; then
  command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)"; exit 1; }
  mkdir -m 755 "$root" || exit 1
  debootstrap --variant=minbase --include=postgresql-17 trixie "$root" http://deb.debian.org/debian >"$root/debootstrap.log" 2>&1 ||
    { echo "debootstrap failed: see $root/debootstrap.log"; exit 1; }
  touch "$marker"
fi
wrapper=$root/pgbench17
cat >"$wrapper" <<SH
#!/bin/sh
exec $root/lib64/ld-linux-x86-64.so.2 --library-path $root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu $root/usr/lib/postgresql/17/bin/pgbench "\$@"
SH
chmod 755 "$wrapper"
echo "comparing with $("$wrapper" --version)"
CI=true PGBENCH=$wrapper bash tests/db/script_vs_pgbench_test.sh "$build/app/scalelab"
