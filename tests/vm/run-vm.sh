#!/usr/bin/env bash
# Builds the vm image from BUILD_DIR's scalelab and boots it under QEMU's software emulation
# with a real SMT CPU (1 socket, 2 cores, 2 threads, Intel: with QEMU's default AMD vendor the
# kernel reports SMT as notsupported). The guest runs tests/vm/guest-tests.sh and powers off;
# its console goes to OUT_DIR/guest.log, and the files it sends (VMFILE markers, base64) to
# OUT_DIR/files/. Exit status 0 when the guest ran to its end; the checks are read from the
# log by the ctest tests (tests/vm/CMakeLists.txt).
#
#   tests/vm/run-vm.sh BUILD_DIR OUT_DIR [TIMEOUT_SECONDS]
set -euo pipefail
build=$1
out=$(realpath -m "$2")
limit=${3:-1200}
here=$(cd "$(dirname "$0")" && pwd)
command -v qemu-system-x86_64 >/dev/null || { echo "run-vm: qemu-system-x86_64 is missing (scripts/install-deps)" >&2; exit 1; }
mkdir -p "$out"
"$here/build-image.sh" "$build" "$out"
rm -f "$out/guest.log"
rm -rf "$out/files"
mkdir -p "$out/files"
start=$(date +%s)
status=0
timeout --foreground -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max,vendor=GenuineIntel \
  -smp 4,sockets=1,cores=2,threads=2 -m 3G -nic none -display none -no-reboot \
  -kernel "$out/kernel/vmlinuz" -initrd "$out/initramfs.cpio" \
  -append "console=ttyS0 quiet loglevel=3 panic=-1" -serial "file:$out/guest.log" -monitor none || status=$?
echo "run-vm: guest ran $(( $(date +%s) - start )) s (exit $status); console in $out/guest.log"
tr -d '\r' < "$out/guest.log" | awk -v dir="$out/files" '
  /^VMFILE .* BEGIN$/ { name = $2; file = dir "/" name ".b64"; printf "" > file; next }
  /^VMFILE .* END$/   { close(file); name = ""; next }
  name != ""          { print >> file }'
for f in "$out"/files/*.b64; do
  [[ -e "$f" ]] || continue
  base64 -d "$f" > "${f%.b64}" && rm -f "$f"
done
grep -a "^VMTEST" "$out/guest.log" | tr -d '\r' || true
grep -aq "^VMGUEST done" "$out/guest.log" || { echo "run-vm: the guest did not run to its end" >&2; exit 1; }
exit 0
