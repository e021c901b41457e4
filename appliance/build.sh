#!/bin/bash
# appliance/build.sh - build the nasui appliance: a bootable USB disk image (GPT, GRUB for BIOS and
# UEFI) with Debian bookworm, the Debian kernel plus the OpenZFS module built by the ZFS VM lane,
# zfsutils-linux, LIO tools, tgt, Samba, the kernel NFS server, Redis, nginx-light and the panel in
# a venv.
#
#   appliance/build.sh            # build (or reuse cached layers), write var/appliance/nasui.img
#
# The host kernel has no partition or vfat support, so nothing is mounted: the root and data file
# systems are made with `mkfs.ext4 -d DIR`, the ESP with mtools, and everything is copied into a
# sparse GPT disk file with dd.
#
# Environment (all optional):
#   NASUI_APPLIANCE_CACHE   cache of heavy layers (default ~/.cache/nasui/appliance)
#   NASUI_APPLIANCE_OUT     output dir (default var/appliance in the checkout)
#   NASUI_APPLIANCE_ISCSI   iSCSI engine written into /etc/nasui/nasui.env (default lio)
#   NASUI_APPLIANCE_RELEASE the release name in /opt/nasui/VERSION (default: git describe)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HERE=$REPO/appliance
CACHE=${NASUI_APPLIANCE_CACHE:-$HOME/.cache/nasui/appliance}
OUT=${NASUI_APPLIANCE_OUT:-$REPO/var/appliance}
ZFSVM_CACHE=${NASUI_ZFSVM_CACHE:-$HOME/.cache/nasui/zfsvm}
ISCSI_ENGINE=${NASUI_APPLIANCE_ISCSI:-lio}
SOURCES=/etc/apt/sources.list.d/debian.sources
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=900)

# Debian packages of the image (besides the kernel, which is pinned to the lane's version).
PKGS=(systemd-sysv udev kmod dbus iproute2 iputils-ping procps util-linux e2fsprogs fdisk
  initramfs-tools zstd openssl ca-certificates less nano
  zfsutils-linux targetcli-fb python3-rtslib-fb tgt redis-server nginx-light
  python3 python3-venv
  samba samba-vfs-modules libnss-wrapper
  nfs-kernel-server smartmontools fio
  openssh-client openssh-server
  nut-server nut-client
  systemd-timesyncd tzdata)
# Kernel module trees nobody needs on a NAS appliance (the full tree is ~400 MiB). fs/nfsd (the
# NFS server) stays, with what it needs outside it: net/sunrpc (sunrpc, auth_rpcgss), fs/lockd,
# fs/nfs_common (grace, nfs_acl); exportfs is built in. fs/nfs (the client) goes.
TRIM_MODS=(drivers/gpu drivers/media drivers/net/wireless drivers/infiniband drivers/staging
  drivers/iio drivers/isdn drivers/bluetooth net/bluetooth net/wireless net/mac80211 sound
  drivers/input/touchscreen drivers/hwmon drivers/comedi drivers/net/can net/can
  drivers/net/ethernet/mellanox drivers/net/ethernet/chelsio drivers/net/ethernet/qlogic
  drivers/mtd drivers/platform/chrome drivers/thunderbolt drivers/firewire fs/ocfs2 fs/gfs2
  fs/xfs fs/btrfs fs/nfs fs/ceph fs/smb fs/cifs fs/dlm drivers/scsi/lpfc drivers/scsi/qla2xxx
  drivers/scsi/mpi3mr drivers/scsi/megaraid drivers/net/usb drivers/usb/gadget
  drivers/block/floppy.ko)
# The root partition has a fixed size so that a later release's root file system fits in it
# (appliance/upgrade.sh writes only that partition); the build fails if the content outgrows it.
ROOT_MIB=1536
ROOT_MIB_FREE=256  # at least this much stays free on the root file system
DATA_MIB=256       # the writable data partition (database, settings, TLS key); the first boot
                   # grows it over the rest of the stick (nasui-setup)
ESP_MIB=64

LOG_NAME=appliance
# shellcheck source=scripts/log.sh
source "$REPO/scripts/log.sh"

WORK=""
cleanup() { [ -n "$WORK" ] && rm -rf "$WORK"; }
trap cleanup EXIT

host_tools() { # the image tools; the kernel and ZFS module come from the ZFS VM lane
  local missing=() c p
  for c in sgdisk:gdisk mcopy:mtools mkfs.vfat:dosfstools mkfs.ext4:e2fsprogs \
    grub-mkimage:grub-common mmdebstrap:mmdebstrap zstd:zstd npm:npm; do
    command -v "${c%%:*}" >/dev/null || missing+=("${c#*:}")
  done
  for p in /usr/lib/grub/i386-pc:grub-pc-bin /usr/lib/grub/x86_64-efi:grub-efi-amd64-bin; do
    [ -d "${p%%:*}" ] || missing+=("${p#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"
  apt-get update -q -o DPkg::Lock::Timeout=900 >/dev/null
  "${APT[@]}" "${missing[@]}" >/dev/null
}

lane_artefacts() { # sets KVER, ZV, MODTAR, VMLINUZ from the ZFS VM lane's cache (builds it if needed)
  bash "$REPO/scripts/zfsvm.sh" build >&2
  VMLINUZ=$(ls -t "$ZFSVM_CACHE"/vmlinuz-* | head -n1)
  KVER=${VMLINUZ##*/vmlinuz-}
  MODTAR=$(ls -t "$ZFSVM_CACHE"/modules-"$KVER"-zfs*.tar | head -n1)
  ZV=${MODTAR##*-zfs}; ZV=${ZV%.tar}
  log "kernel $KVER, OpenZFS module $ZV (from $ZFSVM_CACHE)"
}

# --- layer 1: Debian rootfs + kernel + ZFS module + venv (cached, keyed by its inputs) -------
wheels() { # pip wheels for requirements.txt, built on the host (the image has no compiler)
  # Debian's own Python (3.11.2, as in the image): environment markers must match the image's.
  WHEELS=$CACHE/wheels-$({ /usr/bin/python3 -V; cat "$REPO/requirements.txt"; } | sha256sum | cut -c1-12)
  [ -f "$WHEELS/.done" ] && return
  phase "building wheels for requirements.txt"
  mkdir -p "$WHEELS"
  [ -x "$CACHE/pipenv/bin/pip" ] || /usr/bin/python3 -m venv "$CACHE/pipenv"
  PIP_FIND_LINKS= "$CACHE/pipenv/bin/pip" wheel -q -w "$WHEELS" -r "$REPO/requirements.txt"
  touch "$WHEELS/.done"
}

base_key() { # everything that changes layer 1
  { printf '%s\n' "${PKGS[@]}" "${TRIM_MODS[@]}" "$KVER" "$ZV"
    sha256sum "$MODTAR" "$REPO/requirements.txt" | cut -d' ' -f1
    sed -n '/^#BASE-BEGIN/,/^#BASE-END/p' "${BASH_SOURCE[0]}"
  } | sha256sum | cut -c1-12
}

#BASE-BEGIN
build_base() { # $1 = output tar.zst
  local root=$WORK/base pkgs
  pkgs=$(IFS=,; echo "${PKGS[*]},linux-image-$KVER")
  phase "mmdebstrap: Debian bookworm + linux-image-$KVER + ${#PKGS[@]} packages"
  mkdir -p "$root"
  # The host's deb822 sources (with contrib for zfsutils-linux) serve as the mirror list.
  mmdebstrap --variant=minbase --include="$pkgs" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d"; echo COMPRESS=zstd > "$1/etc/initramfs-tools/conf.d/nasui"' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    bookworm "$root" "$SOURCES" >"$WORK/mmdebstrap.log" 2>&1 ||
    die "mmdebstrap failed: $(tail -n 20 "$WORK/mmdebstrap.log")"
  phase "kernel modules: OpenZFS from the lane, trimming unneeded drivers"
  tar -C "$root" -xf "$MODTAR" "lib/modules/$KVER/updates"
  local d
  for d in "${TRIM_MODS[@]}"; do rm -rf "$root/lib/modules/$KVER/kernel/$d"; done
  depmod -b "$root" "$KVER"
  local m
  # No floppy driver: a NAS has none, and probing qemu's (I/O errors on the console at 26-34 s
  # of the test boots) happened while udev was settling, which the pool import waits for.
  [ ! -e "$root/lib/modules/$KVER/kernel/drivers/block/floppy.ko" ] || die "floppy.ko stayed"
  for m in nfsd sunrpc lockd grace nfs_acl auth_rpcgss; do  # the NFS server's modules stayed
    grep -q "/$m\.ko" "$root/lib/modules/$KVER/modules.dep" || die "kernel module $m was trimmed"
  done
  cmp -s "$VMLINUZ" "$root/boot/vmlinuz-$KVER" || die "the lane's kernel differs from linux-image-$KVER"
  phase "initramfs (MODULES=most, zstd)"
  chroot "$root" update-initramfs -u -k "$KVER" >/dev/null
  phase "venv with the panel's requirements (offline, from host-built wheels)"
  mkdir -p "$root/tmp/wheels"; cp "$WHEELS"/*.whl "$root/tmp/wheels/"
  # Without psycopg: the appliance keeps its database in SQLite, and DRF imports psycopg whenever
  # it is installed (~70 ms of CPU on a PC, seconds of an emulated boot, in every web start).
  grep -v '^psycopg' "$REPO/requirements.txt" >"$root/tmp/requirements.txt"
  # System site packages: Debian's python3-rtslib-fb (the LIO engine's library) stays visible.
  chroot "$root" python3 -m venv --system-site-packages /opt/nasui/venv
  PIP_FIND_LINKS= chroot "$root" /opt/nasui/venv/bin/pip install -q --no-index --find-links /tmp/wheels \
    -r /tmp/requirements.txt
  rm -rf "$root/tmp/wheels" "$root/tmp/requirements.txt" "$root/root/.cache"
  find "$root/opt/nasui/venv" -name '__pycache__' -prune -exec rm -rf {} +
  chroot "$root" /opt/nasui/venv/bin/python -m compileall -q /opt/nasui/venv >/dev/null || true
  phase "saving layer 1"
  tar -C "$root" --numeric-owner -cf - . | zstd -q -T0 -3 >"$1.tmp"
  mv "$1.tmp" "$1"
  rm -rf "$root"
}
#BASE-END

# --- layer 2: the panel, its static files and the appliance configuration ---------------------
stage_app() { # $1 = rootfs dir: copy the checkout's tracked + new files, vendor, collectstatic
  local root=$1 app=$1/opt/nasui/app
  phase "panel: sources, npm ci + vendor.sh, collectstatic"
  mkdir -p "$app"
  # Exactly the files git knows or would add (no venv, node_modules, var, caches).
  (cd "$REPO" && git ls-files -co --exclude-standard -z | grep -zv '^appliance/' |
    xargs -0 tar -cf - --ignore-failed-read 2>/dev/null) | tar -C "$app" -xf -
  # A private npm ci in a staging copy: the shared checkout's node_modules stays untouched.
  local npm_dir=$CACHE/npm-$(cat "$REPO/package-lock.json" "$REPO/scripts/vendor.sh" | sha256sum | cut -c1-12)
  if [ ! -f "$npm_dir/.done" ]; then
    rm -rf "$npm_dir"; mkdir -p "$npm_dir/scripts"
    cp "$REPO/package.json" "$REPO/package-lock.json" "$npm_dir/"
    cp "$REPO/scripts/vendor.sh" "$npm_dir/scripts/"
    (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null && sh scripts/vendor.sh)
    touch "$npm_dir/.done"
  fi
  mkdir -p "$app/static/vendor"; cp "$npm_dir"/static/vendor/* "$app/static/vendor/"
  # collectstatic with the image's own Python and venv (STATIC_ROOT = DATA_DIR/static).
  mkdir -p "$root/tmp/collect"
  chroot "$root" env NASUI_DATA_DIR=/tmp/collect NASUI_SECRET_KEY=build NASUI_ZFS_ENGINE=sandbox \
    /opt/nasui/venv/bin/python /opt/nasui/app/manage.py collectstatic --noinput -v 0
  rm -rf "$root/opt/nasui/static"; mv "$root/tmp/collect/static" "$root/opt/nasui/static"
  rm -rf "$root/tmp/collect"
  # An empty, already-migrated database: the first boot copies it instead of running every
  # migration (nasui-setup; ~10 s under emulation). WAL is checkpointed when migrate exits.
  mkdir -p "$root/tmp/template"
  chroot "$root" env NASUI_DATA_DIR=/tmp/template NASUI_SECRET_KEY=build NASUI_ZFS_ENGINE=sandbox \
    /opt/nasui/venv/bin/python /opt/nasui/app/manage.py migrate --noinput -v 0
  [ ! -e "$root/tmp/template/nasui.sqlite3-wal" ] || die "the template database was left with a WAL"
  mv "$root/tmp/template/nasui.sqlite3" "$root/opt/nasui/template.sqlite3"
  rm -rf "$root/tmp/template"
  chroot "$root" /opt/nasui/venv/bin/python -m compileall -q /opt/nasui/app >/dev/null || true
  echo "${NASUI_APPLIANCE_RELEASE:-$(cd "$REPO" && git describe --always --dirty 2>/dev/null || echo unknown)}" \
    >"$root/opt/nasui/VERSION"
}

configure() { # $1 = rootfs dir: units, nginx, scripts, fstab, grub.cfg, hostname
  local root=$1
  phase "appliance configuration (systemd units, nginx, first-boot script)"
  cp -r "$HERE/rootfs/." "$root/"
  chmod 755 "$root/usr/local/sbin/"*
  sed -i "s/^NASUI_ISCSI_ENGINE=.*/NASUI_ISCSI_ENGINE=$ISCSI_ENGINE/" "$root/etc/nasui/nasui.env"
  echo nasui >"$root/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\tnasui nasui.local\n::1\tlocalhost\n' >"$root/etc/hosts"
  # The data partition's label shows once udev has probed the stick: 60 s leaves room for a slow
  # (or, in the test lane, an emulated and busy) machine before the boot goes on without it.
  cat >"$root/etc/fstab" <<EOF
LABEL=NASUI_DATA /var/lib/nasui ext4 noatime,nofail,x-systemd.device-timeout=60s 0 2
LABEL=NASUI_EFI /boot/efi vfat noatime,nofail,umask=0077,x-systemd.device-timeout=60s 0 0
EOF
  mkdir -p "$root/boot/efi"
  mkdir -p "$root/var/lib/nasui"
  mkdir -p "$root/etc/target"  # LIO's target core keeps persistent-reservation files here
  # The panel's exports file (/etc/exports.d/nasui.exports) and versions drop-in
  # (/etc/nfs.conf.d/nasui.conf) live on the root fs: on a fresh root (an upgrade) the SMB
  # supervisor's first check writes them again from the database (see nasui-smb.service).
  mkdir -p "$root/etc/exports.d" "$root/etc/nfs.conf.d"
  # ZFS records the hostid of the system that imported a pool and will not import it on a
  # system with another one: keep it on the data partition so that an upgraded root (another
  # Debian layer, another random /etc/hostid) still imports the pools at boot.
  rm -f "$root/etc/hostid"; ln -s /var/lib/nasui/hostid "$root/etc/hostid"
  # The NTP servers chosen in the panel (System -> Time) live on the data partition too:
  # nasui-setup copies them into timesyncd.conf.d at boot (timesyncd's own user cannot read the
  # data partition) and links the time zone again (systemd reads the zone's name from the
  # /etc/localtime link itself).
  mkdir -p "$root/etc/systemd/timesyncd.conf.d"
  # SSH (replication's other end): no host key in the image, or every stick would share one;
  # nasui-setup makes this box's on the data partition at first boot (sshd_config.d/nasui.conf
  # names them there, with the authorized keys that pairing adds).
  rm -f "$root"/etc/ssh/ssh_host_*
  # root's password is locked: the console shows the URL; the panel is the interface.
  # Pools come back by scanning devices (the cache file lives on the replaceable root fs).
  rm -f "$root/etc/nginx/sites-enabled/default"
  ln -sf /etc/nginx/sites-available/nasui "$root/etc/nginx/sites-enabled/nasui"
  systemctl --root="$root" disable tgt.service zfs-import-cache.service >/dev/null 2>&1 || true
  systemctl --root="$root" mask zfs-import-cache.service >/dev/null 2>&1
  # The panel runs its own smbd (nasui-smb, files under the data partition): Debian's Samba
  # daemons never start, and /etc/samba is not used.
  systemctl --root="$root" disable smbd.service nmbd.service samba-ad-dc.service >/dev/null 2>&1 || true
  systemctl --root="$root" mask smbd.service nmbd.service samba-ad-dc.service >/dev/null 2>&1
  # The panel runs its own NUT driver, upsd and upsmon (nasui-ups, files on the data partition).
  systemctl --root="$root" disable nut-server.service nut-monitor.service nut-driver.service \
    nut-driver.target nut.target >/dev/null 2>&1 || true
  systemctl --root="$root" mask nut-server.service nut-monitor.service nut-driver.service >/dev/null 2>&1
  # LIO's configuration is restored by nasui-iscsi from the data partition; Debian's restore of
  # /etc/rtslib-fb-target (empty here) only loaded the target's modules early (~4 s of an
  # emulated boot).
  systemctl --root="$root" mask rtslib-fb-targetctl.service >/dev/null 2>&1
  # systemd loads these modules early, before anything else may start, each in its own modprobe
  # (3-6 s apiece in the emulated boots' blame); a NAS uses none of them at boot (no loop files,
  # device mapper, FUSE, graphics or EFI pstore), and the kernel still loads one on first use.
  systemctl --root="$root" mask modprobe@loop.service modprobe@dm_mod.service \
    modprobe@fuse.service modprobe@drm.service modprobe@efi_pstore.service >/dev/null 2>&1
  # Pools' file systems are mounted by nasui-zfs-mount, which does not hold back local-fs.target.
  systemctl --root="$root" mask zfs-mount.service >/dev/null 2>&1
  # zfs-share (`zfs share -a`: the sharenfs/sharesmb properties, which the panel does not use; it
  # writes its own exports) closed an ordering cycle with nfs-server (after zfs.target, which
  # waits for zfs-share, which waits for nfs-server): at every boot systemd broke it by dropping
  # one of the three jobs, nfs-server's own start among them.
  systemctl --root="$root" mask zfs-share.service >/dev/null 2>&1
  systemctl --root="$root" enable systemd-networkd.service zfs-import-scan.service \
    nasui-zfs-mount.service zfs.target zfs-import.target nasui-network.service nasui-setup.service \
    nasui-web.service nasui-events.service \
    nasui-worker.service nasui-iscsi.service nasui-smb.service nasui-ups.service nasui-unlock.service \
    zfs-volume-wait.service nginx.service \
    redis-server.service nasui-report.timer nasui-boot-report.service nasui-slot-commit.service \
    >/dev/null 2>&1
  # The kernel NFS server (NASUI_NFS=kernel): NFSv4 on port 2049; rpcbind (port 111, pulled in by
  # nfs-server.service) for NFSv3 when the panel turns it on. ZFS's own sharenfs is not used.
  systemctl --root="$root" enable nfs-server.service rpcbind.socket >/dev/null 2>&1
  sed -i 's/^save .*/# save disabled by nasui: the broker needs no persistence/; $a save ""' \
    "$root/etc/redis/redis.conf"
  # One nginx worker is plenty for one admin's browser, and 2 cores would otherwise mean two.
  sed -i 's/^worker_processes .*/worker_processes 1;/' "$root/etc/nginx/nginx.conf"
  # The root's own boot entry, read by the ESP's grub.cfg once it has picked a slot ($slot):
  # two slots hold two releases, each with its own kernel. The root file system is found by its
  # slot's label and mounted read-write by the initramfs (fstab has no line for it: it differs
  # per slot); panic=10 restarts a kernel that cannot go on, which falls back to the good slot.
  cat >"$root/boot/nasui-boot.cfg" <<EOF
insmod gzio
linux /boot/vmlinuz-$KVER root=LABEL=NASUI_ROOT_\$slot rootflags=noatime,errors=remount-ro rw quiet console=tty0 console=ttyS0,115200n8 nasui.slot=\$slot panic=10
initrd /boot/initrd.img-$KVER
EOF
  # The public key of the updates this image takes (the build's signing key: update_key).
  mkdir -p "$root/opt/nasui/update-keys"
  cp "$UPDATE_PUBLIC" "$root/opt/nasui/update-keys/nasui.pem"
}

# --- the disk image --------------------------------------------------------------------------
grub_images() { # BOOTX64.EFI and the i386-pc core.img with an early config that finds the root
  local mods=(part_gpt ext2 fat search search_label normal configfile linux echo test gzio
    all_video loadenv)
  cat >"$WORK/early.cfg" <<EOF
search --no-floppy --label --set=root NASUI_EFI
set prefix=(\$root)/grub
configfile \$prefix/grub.cfg
EOF
  grub-mkimage -O x86_64-efi -o "$WORK/BOOTX64.EFI" -p /grub -c "$WORK/early.cfg" \
    "${mods[@]}" efi_gop efi_uga serial terminal
  grub-mkimage -O i386-pc -o "$WORK/core.img" -p /grub -c "$WORK/early.cfg" \
    biosdisk "${mods[@]}" serial terminal
}

esp_grub() { # $1 = dir -> the ESP's /grub: modules of both firmware types, grub.cfg, grubenv
  local dir=$1/grub
  mkdir -p "$dir"
  cp -r /usr/lib/grub/i386-pc /usr/lib/grub/x86_64-efi "$dir/"
  rm -f "$dir"/*/*.image "$dir"/*/*.module "$dir"/*/*.exec
  # The slot: nasui_try once (cleared as it boots: a release that never marks itself good is
  # left at the next restart), else nasui_good (A on a new stick). See system/updates.
  cat >"$dir/grub.cfg" <<EOF
set timeout=${NASUI_APPLIANCE_GRUB_TIMEOUT:-2}
serial --unit=0 --speed=115200
terminal_input console serial
terminal_output console serial
load_env
set slot=A
if [ "\$nasui_good" = B ]; then set slot=B; fi
if [ -n "\$nasui_try" ]; then
  set slot="\$nasui_try"
  set nasui_try=
  save_env nasui_try
fi
menuentry "nasui appliance (slot \$slot)" {
  insmod part_gpt
  insmod ext2
  search --no-floppy --label --set=root "NASUI_ROOT_\$slot"
  source (\$root)/boot/nasui-boot.cfg
}
EOF
  { printf '# GRUB Environment Block\nnasui_good=A\n'; head -c 1024 /dev/zero | tr '\0' '#'; } |
    head -c 1024 >"$dir/grubenv"
}

patch_bios_boot() { # $1 = image, $2 = LBA of core.img: what grub-bios-setup does, by hand
  python3 - "$1" "$2" "$WORK/core.img" /usr/lib/grub/i386-pc/boot.img <<'EOF'
import struct, sys
img, lba, core_path, boot_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
core = bytearray(open(core_path, "rb").read())
boot = bytearray(open(boot_path, "rb").read())
sectors = (len(core) + 511) // 512
# diskboot.img (core's first sector) loads the rest: one blocklist entry at its end.
struct.pack_into("<QHH", core, 512 - 12, lba + 1, sectors - 1, 0x820)
with open(img, "r+b") as f:
    mbr = bytearray(f.read(512))
    struct.pack_into("<Q", boot, 0x5C, lba)        # boot.img: where core.img starts
    boot[0x66:0x68] = b"\x90\x90"                   # no floppy drive check (a hard disk)
    mbr[:0x1B8] = boot[:0x1B8]                      # keep the protective MBR's table
    f.seek(0); f.write(mbr)
    f.seek(lba * 512); f.write(core)
EOF
}

assemble() { # $1 = rootfs dir -> $OUT/nasui.img
  local root=$1 img=$OUT/nasui.img.tmp used_mib root_mib=$ROOT_MIB total_mib
  phase "file systems and GPT image"
  used_mib=$(du -sm --apparent-size "$root" | cut -f1)
  [ $((used_mib * 115 / 100 + ROOT_MIB_FREE)) -le "$ROOT_MIB" ] ||
    die "the root file system ($used_mib MiB) no longer fits ROOT_MIB=$ROOT_MIB with room to spare"
  mkfs.ext4 -q -F -L NASUI_ROOT_A -U "$ROOT_UUID" -d "$root" -E root_owner=0:0 \
    "$WORK/root.ext4" "${root_mib}M"
  mkdir -p "$WORK/data"; echo "nasui data partition" >"$WORK/data/README"
  head -c 4 /dev/urandom >"$WORK/data/hostid"  # this stick's hostid (see configure)
  # 4 KiB blocks: for a file system this small mke2fs would pick 1 KiB, and the first boot grows
  # it to the stick's size, where 1 KiB blocks are the wrong fit.
  mkfs.ext4 -q -F -b 4096 -L NASUI_DATA -U "$DATA_UUID" -d "$WORK/data" "$WORK/data.ext4" "${DATA_MIB}M"
  grub_images
  mkfs.vfat -C -n NASUI_EFI "$WORK/esp.img" $((ESP_MIB * 1024)) >/dev/null
  mmd -i "$WORK/esp.img" ::/EFI ::/EFI/BOOT
  mcopy -i "$WORK/esp.img" "$WORK/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI
  esp_grub "$WORK/esp"
  mcopy -s -i "$WORK/esp.img" "$WORK/esp/grub" ::/
  # 1 MiB gap, BIOS boot 1 MiB at 1 MiB, ESP, root slots A and B (B empty until the first
  # update), data, then the backup GPT.
  total_mib=$((1 + 1 + ESP_MIB + 2 * root_mib + DATA_MIB + 1))
  rm -f "$img"; truncate -s "${total_mib}M" "$img"
  sgdisk -o -a 2048 \
    -n 1:2048:+1M -t 1:EF02 -c 1:bios \
    -n "2:0:+${ESP_MIB}M" -t 2:EF00 -c 2:esp \
    -n "3:0:+${root_mib}M" -t 3:8300 -c 3:nasui-root-a -u "3:$ROOT_PARTUUID" \
    -n "4:0:+${root_mib}M" -t 4:8300 -c 4:nasui-root-b \
    -n 5:0:0 -t 5:8300 -c 5:nasui-data "$img" >/dev/null
  local p start
  for p in 2:esp.img 3:root.ext4 5:data.ext4; do
    start=$(sgdisk -i "${p%%:*}" "$img" | sed -n 's/^First sector: \([0-9]*\).*/\1/p')
    [ -n "$start" ] || die "partition ${p%%:*} missing from the GPT"
    dd if="$WORK/${p#*:}" of="$img" bs=1M seek="$((start * 512))" oflag=seek_bytes \
      conv=notrunc,sparse status=none
  done
  patch_bios_boot "$img" 2048
  mv "$img" "$OUT/nasui.img"
  # For an upgrade in place: the root partition alone (the data partition is kept).
  cp --sparse=always "$WORK/root.ext4" "$OUT/nasui-root.ext4"
  # For an update from the panel: the same, compressed and signed.
  phase "signed update file"
  update_tool make "$UPDATE_KEY" "$(cat "$root/opt/nasui/VERSION")" "$WORK/root.ext4" \
    "$OUT/nasui-update.tar" >/dev/null
}

update_tool() { # the update files' tool (system/updates/engine/bundle.py) with the checkout's venv
  local python=$REPO/.venv/bin/python
  [ -x "$python" ] || die "$python is missing: make dev-deps first (it signs the update file)"
  (cd "$REPO" && "$python" -m system.updates.engine.bundle "$@")
}

update_key() { # the build's signing key, made once and kept in the cache; its public half
  UPDATE_KEY=$CACHE/update-signing-key.pem
  UPDATE_PUBLIC=$WORK/update-key.pem
  update_tool key "$UPDATE_KEY" "$UPDATE_PUBLIC"
}

main() {
  mkdir -p "$CACHE" "$OUT"
  WORK=$(mktemp -d -p "$CACHE" work.XXXX)
  host_tools
  lane_artefacts
  wheels
  local key base
  key=$(base_key); base=$CACHE/base-$KVER-zfs$ZV-$key.tar.zst
  if [ -s "$base" ]; then log "layer 1 cache hit: $base"; else build_base "$base"; fi
  find "$CACHE" -maxdepth 1 -name 'base-*.tar.zst' ! -name "${base##*/}" -delete
  [ "${1:-}" = base ] && return
  phase "unpacking layer 1"
  mkdir -p "$WORK/root"; zstd -q -dc "$base" | tar -C "$WORK/root" -xf -
  # Stable UUIDs per output dir: the data partition of an upgraded stick keeps matching.
  [ -f "$OUT/uuids" ] || printf '%s %s %s\n' "$(cat /proc/sys/kernel/random/uuid)" \
    "$(cat /proc/sys/kernel/random/uuid)" "$(cat /proc/sys/kernel/random/uuid)" >"$OUT/uuids"
  read -r ROOT_UUID DATA_UUID ROOT_PARTUUID <"$OUT/uuids"
  update_key
  stage_app "$WORK/root"
  configure "$WORK/root"
  assemble "$WORK/root"
  phase "done: $OUT/nasui.img $(du -h --apparent-size "$OUT/nasui.img" | cut -f1) (allocated $(du -h "$OUT/nasui.img" | cut -f1)), total $(($(date +%s) - T0))s"
}

main "$@"
