#!/bin/bash
# appliance/upgrade.sh - upgrade a nasui USB stick (or disk image) in place: write a new release's
# root file system into the root slot the stick boots (GRUB's nasui_good on the ESP, A on a new
# stick) and leave the rest alone, above all the data partition (database, secret key, TLS key,
# LIO save file, settings). Pools live on other disks anyway. The panel's own updates
# (System -> Updates) write the other slot instead and keep this one to fall back to.
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
command -v mtype >/dev/null || die "mtype is needed (Debian package mtools)"

partition_field() { # $1 = partition number, $2 = field name in `sgdisk -i` -> its value
  sgdisk -i "$1" "$TARGET" 2>/dev/null | sed -n "s/^$2: *//p"
}

check_layout() { # the target must be a nasui stick: 2 the ESP, 3 and 4 the root slots, 5 the data
  local n name
  for n in 2:esp 3:nasui-root-a 4:nasui-root-b 5:nasui-data; do
    name=$(partition_field "${n%%:*}" 'Partition name')
    [ "$name" = "'${n#*:}'" ] || die "$TARGET: partition ${n%%:*} is not ${n#*:}: not a nasui stick"
  done
}

good_slot() { # the slot GRUB boots by default: nasui_good in the ESP's grubenv (A if unset)
  local first slot
  first=$(partition_field 2 'First sector' | cut -d' ' -f1)
  slot=$(mtype -i "$TARGET@@$((first * 512))" ::/grub/grubenv 2>/dev/null |
    sed -n 's/^nasui_good=//p')
  [ "$slot" = B ] && echo B || echo A
}

check_not_mounted() { # writing under a mounted file system would corrupt it
  [ -b "$TARGET" ] || return 0
  local dev
  for dev in "$TARGET" "$TARGET"?*; do
    if grep -q "^$dev " /proc/mounts; then die "$dev is mounted: unmount it first"; fi
  done
}

check_new_root() { # $1 = partition size in bytes: the new file system must be a nasui root and fit
  [ "$(blkid -o value -s LABEL "$NEW_ROOT")" = NASUI_ROOT_A ] ||
    die "$NEW_ROOT is not a nasui root file system (label NASUI_ROOT_A)"
  local size; size=$(stat -c %s "$NEW_ROOT")
  [ "$size" -le "$1" ] || die "$NEW_ROOT ($size bytes) does not fit the root partition ($1 bytes)"
  e2fsck -fn "$NEW_ROOT" >/dev/null 2>&1 || die "$NEW_ROOT does not pass e2fsck"
}

main() {
  check_layout
  check_not_mounted
  local slot number first sectors root=$NEW_ROOT
  slot=$(good_slot)
  number=$([ "$slot" = A ] && echo 3 || echo 4)
  first=$(partition_field "$number" 'First sector' | cut -d' ' -f1)
  sectors=$(partition_field "$number" 'Partition size' | cut -d' ' -f1)
  check_new_root $((sectors * 512))
  if [ "$slot" = B ]; then  # the build labels its root for slot A: a copy labelled for B
    root=$(mktemp --tmpdir nasui-root-b.XXXX)
    trap 'rm -f "$root"' EXIT
    cp --sparse=always "$NEW_ROOT" "$root"
    e2label "$root" NASUI_ROOT_B
  fi
  phase "writing $(basename "$NEW_ROOT") into slot $slot (partition $number of $TARGET, sector $first)"
  # Every block, zeros included: a sparse copy would leave the old release's bytes behind.
  dd if="$root" of="$TARGET" bs=4M seek=$((first * 512)) oflag=seek_bytes conv=notrunc,fsync \
    status=none
  phase "done: the data partition was not touched; boot the appliance"
}

main
