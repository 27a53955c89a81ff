#!/bin/sh
# /init of the vm tests' guest: mounts what PostgreSQL and ScaleLab need, runs the test
# script with its output on the serial console, and powers the guest off.
export PATH=/usr/local/bin:/bin:/sbin:/usr/bin
export HOME=/root TZ=UTC LANG=C
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
chmod 1777 /var/tmp
ip link set lo up
hostname scalelab-vm
echo "VMGUEST booted $(cat /proc/uptime)"
sh /guest-tests.sh
echo "VMGUEST done"
sync
poweroff -f
