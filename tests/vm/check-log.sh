#!/usr/bin/env bash
# One vm check: passes when the guest's log says "VMTEST NAME PASS"; prints the guest's lines
# about it otherwise. setup_passes_silently: no check named setup failed.
set -uo pipefail
log=$1
name=$2
[[ -f "$log" ]] || { echo "no guest log $log (vm_guest did not run)"; exit 1; }
if [[ "$name" == setup_passes_silently ]]; then
  ! grep -a "^VMTEST setup FAIL" "$log"
  exit $?
fi
grep -aq "^VMTEST $name PASS" "$log" && exit 0
echo "the guest's check $name did not pass:"
awk -v n="VMTEST $name " 'index($0, n) == 1 { on = 1; print; next } on && /^  / { print; next } { on = 0 }' "$log"
grep -aq "^VMTEST $name " "$log" || echo "(the guest never reported it)"
exit 1
