# Sourced by the package and newcomer tests: a clean Debian 12 root, from the mirror and suites
# this machine's apt uses (debootstrap, minbase), with this machine's apt sources, no service
# starting inside it, and /proc, /sys and /dev bound in. The caller defines fail().
#   clean_root_begin NAME TOOL...  needs root and the tools (else exit 77, or 1 under CI=true);
#                                  sets `work` (a directory removed at exit) and `root` in it
#   make_clean_root ROOT NAME      the root (NAME prefixes the timing line: "package test")
clean_root_begin() {
  local name=$1 tool
  shift
  for tool in "$@"; do
    if [[ $(id -u) != 0 ]] || ! command -v "$tool" >/dev/null; then
      echo "$name: needs root and $* (scripts/install-deps test installs them)"
      [[ "${CI:-}" == true ]] && exit 1
      exit 77
    fi
  done
  work=$(mktemp -d "/tmp/scalelab-${name// /-}-XXXXXX")
  root=$work/root
  mounted=()
  trap clean_root_cleanup EXIT
}
clean_root_cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null; done
  rm -rf "$work"
}
make_clean_root() {
  local root=$1 name=$2 sources=/etc/apt/sources.list.d/debian.sources mirror started
  mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' "$sources" 2>/dev/null)
  [[ -n $mirror ]] || mirror=$(awk '/^deb / && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
  [[ -n $mirror ]] || { fail "no Debian mirror in this machine's apt sources"; return 1; }
  started=$(date +%s)
  if ! debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -20 "$work/debootstrap.log"
    fail "debootstrap"
    return 1
  fi
  echo "$name: debootstrap took $(($(date +%s) - started)) s"
  [[ -f $sources ]] && cp "$sources" "$root/etc/apt/sources.list.d/" && rm -f "$root/etc/apt/sources.list"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"  # no service starts inside the root
  chmod +x "$root/usr/sbin/policy-rc.d"
  local m
  for m in proc sys dev dev/pts; do
    mount --bind "/$m" "$root/$m" && mounted+=("$root/$m")
  done
}
