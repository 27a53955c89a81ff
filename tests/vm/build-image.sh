#!/usr/bin/env bash
# Builds what the vm tests boot: Debian's cloud kernel (extracted from its package, never
# installed) and an initramfs holding busybox, the scalelab binary of BUILD_DIR with every
# shared library it and PostgreSQL 15's programs load, PostgreSQL 15 itself, and the guest's
# test script. The guest runs that script as /init's last step and powers off.
#
#   tests/vm/build-image.sh BUILD_DIR OUT_DIR
#
# The kernel package is fetched once (apt-get download) and kept in OUT_DIR/kernel.
set -euo pipefail
build=$(realpath "$1")
out=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
pgbin=/usr/lib/postgresql/15/bin
scalelab="$build/app/scalelab"
[[ -x "$scalelab" ]] || { echo "build-image: no $scalelab (build first)" >&2; exit 1; }
[[ -x /bin/busybox ]] || { echo "build-image: busybox-static is missing (scripts/install-deps)" >&2; exit 1; }
[[ -x "$pgbin/postgres" ]] || { echo "build-image: PostgreSQL 15 is missing (scripts/install-deps)" >&2; exit 1; }
mkdir -p "$out/kernel"

# The kernel: the package the cloud metapackage depends on today.
if [[ ! -f "$out/kernel/vmlinuz" ]]; then
  find_kernel() { apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}'; }
  pkg=$(find_kernel)
  if [[ -z "$pkg" && $(id -u) -eq 0 ]]; then apt-get update -q >/dev/null && pkg=$(find_kernel); fi
  [[ -n "$pkg" ]] || { echo "build-image: apt knows no linux-image-cloud-amd64 (apt-get update?)" >&2; exit 1; }
  (cd "$out/kernel" && rm -f ./*.deb && apt-get download "$pkg" 2>/dev/null && dpkg-deb -x ./*.deb x)
  cp "$out"/kernel/x/boot/vmlinuz-* "$out/kernel/vmlinuz"
  rm -rf "$out/kernel/x" "$out"/kernel/*.deb
fi

# The root file system.
root="$out/root"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,root,lib64,usr/bin,usr/lib,usr/share,var/tmp}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
  [[ -e "$root/bin/$applet" ]] || ln -s busybox "$root/bin/$applet"
done
copy_with_libs() { # files...
  local f lib
  for f in "$@"; do
    mkdir -p "$root$(dirname "$f")"
    cp -L "$f" "$root$f"
    for lib in $(ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/lib/ {print $1}'); do
      [[ -e "$root$lib" ]] && continue
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done
  done
}
copy_with_libs "$scalelab" "$pgbin"/*
mkdir -p "$root/usr/local/bin"
mv "$root$scalelab" "$root/usr/local/bin/scalelab"
mkdir -p "$root/usr/lib/postgresql/15" "$root/usr/share/postgresql"
cp -a /usr/lib/postgresql/15/lib "$root/usr/lib/postgresql/15/"
cp -a /usr/share/postgresql/15 "$root/usr/share/postgresql/"
mkdir -p "$root/usr/share/zoneinfo"
cp -a /usr/share/zoneinfo/{UTC,GMT,Etc} "$root/usr/share/zoneinfo/" 2>/dev/null || true
cat > "$root/etc/passwd" <<'PW'
root:x:0:0:root:/root:/bin/sh
postgres:x:100:102:PostgreSQL:/var/tmp:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
PW
cat > "$root/etc/group" <<'GR'
root:x:0:
postgres:x:102:
nogroup:x:65534:
GR
echo "127.0.0.1 localhost" > "$root/etc/hosts"
echo "hosts: files" > "$root/etc/nsswitch.conf"
cp "$here/guest-init.sh" "$root/init"
cp "$here/guest-tests.sh" "$root/guest-tests.sh"
chmod 755 "$root/init" "$root/guest-tests.sh"

# busybox's own cpio, newc format, uncompressed: the kernel unpacks it as it is.
(cd "$root" && find . | /bin/busybox cpio -o -H newc > "$out/initramfs.cpio" 2>/dev/null)
echo "build-image: $out/kernel/vmlinuz, $out/initramfs.cpio ($(du -h "$out/initramfs.cpio" | cut -f1))"
