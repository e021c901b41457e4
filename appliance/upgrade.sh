#!/bin/bash
# appliance/upgrade.sh - upgrade a nasui USB stick (or disk image) in place: write a new release's
# root file system into the root partition and leave the rest alone, above all the data partition
# (database, secret key, TLS key, LIO save file, settings). Pools live on other disks anyway.
#
#   appliance/upgrade.sh /dev/sdX [var/appliance/nasui-root.ext4]
#
# Run it on a PC with the stick plugged in but not mounted, or on the image of a powered-off
# appliance. The boot loader finds the root file system by its label, so a root built on another
# machine (other UUIDs) boots the same.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LOG_NAME=upgrade
# shellcheck source=scripts/log.sh
source "$REPO/scripts/log.sh"

TARGET=${1:-}
NEW_ROOT=${2:-$REPO/var/appliance/nasui-root.ext4}
[ -n "$TARGET" ] || die "usage: appliance/upgrade.sh DEVICE-OR-IMAGE [ROOT.ext4]"
[ -e "$TARGET" ] || die "$TARGET does not exist"
[ -f "$NEW_ROOT" ] || die "$NEW_ROOT is missing: run make appliance first"
command -v sgdisk >/dev/null || die "sgdisk is needed (Debian package gdisk)"

partition_field() { # $1 = partition number, $2 = field name in `sgdisk -i` -> its value
  sgdisk -i "$1" "$TARGET" 2>/dev/null | sed -n "s/^$2: *//p"
}

check_layout() { # the target must be a nasui stick: partition 3 the root, 4 the data
  [ "$(partition_field 3 'Partition name')" = "'nasui-root'" ] ||
    die "$TARGET: partition 3 is not nasui-root: not a nasui stick"
  [ "$(partition_field 4 'Partition name')" = "'nasui-data'" ] ||
    die "$TARGET: partition 4 is not nasui-data: not a nasui stick"
}

check_not_mounted() { # writing under a mounted file system would corrupt it
  [ -b "$TARGET" ] || return 0
  local dev
  for dev in "$TARGET" "$TARGET"?*; do
    if grep -q "^$dev " /proc/mounts; then die "$dev is mounted: unmount it first"; fi
  done
}

check_new_root() { # $1 = partition size in bytes: the new file system must be a nasui root and fit
  [ "$(blkid -o value -s LABEL "$NEW_ROOT")" = NASUI_ROOT ] ||
    die "$NEW_ROOT is not a nasui root file system (label NASUI_ROOT)"
  local size; size=$(stat -c %s "$NEW_ROOT")
  [ "$size" -le "$1" ] || die "$NEW_ROOT ($size bytes) does not fit the root partition ($1 bytes)"
  e2fsck -fn "$NEW_ROOT" >/dev/null 2>&1 || die "$NEW_ROOT does not pass e2fsck"
}

main() {
  check_layout
  check_not_mounted
  local first sectors
  first=$(partition_field 3 'First sector' | cut -d' ' -f1)
  sectors=$(partition_field 3 'Partition size' | cut -d' ' -f1)
  check_new_root $((sectors * 512))
  phase "writing $(basename "$NEW_ROOT") into partition 3 of $TARGET (sector $first)"
  # Every block, zeros included: a sparse copy would leave the old release's bytes behind.
  dd if="$NEW_ROOT" of="$TARGET" bs=4M seek=$((first * 512)) oflag=seek_bytes conv=notrunc,fsync \
    status=none
  phase "done: the data partition was not touched; boot the appliance"
}

main
