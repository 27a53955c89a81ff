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
require_sshd() {  # skips (77) without Debian's openssh-server, except under CI
  if [[ ! -x /usr/sbin/sshd ]]; then
    echo "no /usr/sbin/sshd (Debian's openssh-server)"
    [[ "${CI:-}" == true ]] && exit 1
    exit 77
  fi
}
# A throwaway sshd on a free port of 127.0.0.1 that only our key gets into (Debian's
# openssh-server): sets ssh_dir and ssh_command, and stops it at the end.
start_test_sshd() {
  ssh_dir=$work/ssh
  mkdir -p "$ssh_dir"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/host_key" || fail "host key"
  ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/user_key" || fail "user key"
  cp "$ssh_dir/user_key.pub" "$ssh_dir/authorized_keys"
  cat >"$ssh_dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $ssh_dir/host_key
PidFile $ssh_dir/sshd.pid
AuthorizedKeysFile $ssh_dir/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
CONF
  [[ $(id -u) == 0 ]] && mkdir -p /run/sshd  # its privilege separation directory, when root
  /usr/sbin/sshd -D -e -f "$ssh_dir/sshd_config" 2>"$ssh_dir/sshd.log" &
  sshd_pid=$!
  cleanup_extra() { kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; }
  for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null && break
    sleep 0.1
  done
  ssh_command="ssh -p $port -i $ssh_dir/user_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=$ssh_dir/known_hosts -o LogLevel=ERROR"
}
