# Shared by the CLI test scripts: a scratch directory the postgres account can enter, failure
# counting, exit-code checks, and the rule that a missing server skips (77) except under CI.
# Source it after setting `scalelab`; call `finish` at the end.
work=$(mktemp -d /tmp/scalelab-cli-XXXXXX)
chmod 755 "$work"   # as root, the postgres account must be able to enter it
data=$work/data
# The window keeps its last plan and recent files in the user's settings (QSettings, under
# XDG_CONFIG_HOME): a test run of `scalelab gui` must not overwrite a developer's own.
export XDG_CONFIG_HOME=$work/config
failures=0
cleanup_extra() { :; }
cleanup() { cleanup_extra; "$scalelab" server stop --data "$data" >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_rc() { # expected-rc description command...
  local want=$1 what=$2; shift 2
  "$@" >"$work/out" 2>&1; local rc=$?
  [[ $rc == "$want" ]] || fail "$what: exit $rc, expected $want; output: $(cat "$work/out")"
}
require_server() {
  if ! "$scalelab" --version | grep -q '^server: PostgreSQL'; then
    echo "no PostgreSQL server programs: $("$scalelab" --version | grep '^server')"
    [[ "${CI:-}" == true ]] && exit 1
    exit 77
  fi
}
finish() { # name
  if [[ $failures -gt 0 ]]; then echo "$failures check(s) failed"; exit 1; fi
  echo "$1: all checks passed"
}
