#!/bin/bash
# zfsvm.sh - the real-OpenZFS lane: a throw-away Debian 12 VM (stock kernel + zfs-dkms module,
# rootfs packed as an initramfs) booted under qemu TCG, running tests/vm inside it.
#
#   scripts/zfsvm.sh build                 # build (or reuse) the cached kernel + initramfs
#   scripts/zfsvm.sh test [pytest args]    # boot, run tests/vm with pytest, exit with its status
#   scripts/zfsvm.sh capture               # boot, run tests/vm/capture.py -> tests/zfs/fixtures/
#   scripts/zfsvm.sh shell                 # boot to an interactive root shell on the console
#
# Environment (all optional):
#   NASUI_ZFSVM_CACHE     cache dir (default ~/.cache/nasui/zfsvm)
#   NASUI_ZFSVM_OUT       per-run dir for disks, logs, results (default: a fresh mktemp dir)
#   NASUI_ZFSVM_TIMEOUT   overall limit for one VM run in seconds (default 2700)
#   NASUI_ZFSVM_BOOT      boot watchdog in seconds: the guest must report ready by then (120)
#   NASUI_ZFSVM_DISKS     number of blank virtio disks (default 8), NASUI_ZFSVM_DISK_SIZE (1G)
#   NASUI_ZFSVM_MEM       guest memory in MiB (default 3072)
#   NASUI_ZFSVM_SATA      1 (default) adds one emulated SATA disk (serial QMSATA0001, never
#                         picked by the NASUI* tests) for SMART, and the host's smartctl; 0 omits it
#   NASUI_ZFSVM_FWD       host forwards, e.g. "13260-:3260" (bound to 127.0.0.1)
#   NASUI_ZFSVM_ISCSI_PORT   host port always forwarded to the guest's iSCSI port 3260 for the
#                         host-side checks (default: a free port picked at boot)
#   NASUI_ZFSVM_NFS_PORT  host port always forwarded to the guest's NFS port 2049 for the
#                         host-side NFS checks (default: another free port picked at boot)
#   NASUI_ZFSVM_MOUNTD_PORT  host port always forwarded to the guest's port 20048, where the
#                         NFS tests run rpc.mountd for NFSv3 (default: a free port)
#   NASUI_ZFSVM_SMB_PORT  host port always forwarded to the guest's port 4450, where the SMB
#                         tests run their smbd (default: a free port)
#   NASUI_ZFSVM_HOST_CHECKS  host-side helper started in the background for every run
#                         (default tests/vm/host_checks.py; "none" disables it)
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${NASUI_ZFSVM_CACHE:-$HOME/.cache/nasui/zfsvm}
SOURCES=/etc/apt/sources.list.d/debian.sources
export DEBIAN_FRONTEND=noninteractive
# Another process may hold the dpkg lock: wait for it instead of failing.
APT=(apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=900)

# --- recipe: everything between the markers feeds the cache key of the initramfs -------------
#RECIPE-BEGIN
GUEST_PKGS=(zfsutils-linux udev kmod python3 python3-pytest python3-lz4 python3-zstandard iproute2
  procps util-linux fio open-iscsi
  targetcli-fb python3-rtslib-fb dbus
  nfs-kernel-server
  samba samba-vfs-modules libnss-wrapper libuid-wrapper
  openssh-server openssh-client python3-cryptography)  # replication over ssh to the guest's own sshd
# Module subset copied into the guest (plus their dependencies): the full tree is ~400 MiB.
GUEST_MODS=(virtio_pci virtio_blk virtio_net virtio_rng virtio_console 9pnet_virtio 9p loop
  iscsi_tcp zfs configfs target_core_mod target_core_iblock target_core_file target_core_pscsi
  target_core_user iscsi_target_mod nfsd
  crc32c_generic)  # iSCSI logins need crc32c (a soft dependency --show-depends does not list)
guest_init() {
  cat <<'EOF'
#!/bin/sh
# PID 1 of the nasui ZFS VM. Any failure here ends in a power-off (or a panic, which the
# host's -no-reboot turns into a qemu exit): the VM never lingers.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
up() { cut -d' ' -f1 /proc/uptime; }
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm /run /tmp /mnt/src /mnt/out
mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /tmp
echo "NASUI_T init $(up)"
for m in virtio_pci virtio_blk virtio_net virtio_rng 9pnet_virtio 9p configfs; do modprobe -q $m; done
# configfs appears under /sys/kernel/config once its module is loaded (the LIO lane needs it)
mount -t configfs configfs /sys/kernel/config 2>/dev/null
hostname zfsvm
# libzfs needs udev: whole-disk vdevs wait for partition links, zvols need /dev/zvol/* links.
/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1
udevadm trigger --action=add --type=subsystems; udevadm trigger --action=add --type=devices
udevadm settle -t 30
ip link set lo up
if ip link set eth0 up 2>/dev/null; then
  ip addr add 10.0.2.15/24 dev eth0; ip route add default via 10.0.2.2
fi
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro src /mnt/src
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /mnt/out
t0=$(up); modprobe zfs; echo "NASUI_T zfs_loaded $(up) (modprobe $t0)"
echo "NASUI_READY $(up)"
if [ -f /mnt/out/job.sh ]; then
  # the job's output goes to the second serial port, which the host streams live
  (cd /mnt/src && sh /mnt/out/job.sh) >/dev/ttyS1 2>&1
  echo "$?" > /mnt/out/rc.tmp && mv /mnt/out/rc.tmp /mnt/out/rc
else
  setsid sh -c 'exec sh -i </dev/ttyS0 >/dev/ttyS0 2>&1'
fi
echo "NASUI_T job_done $(up)"
zpool export -a >/dev/null 2>&1
sync; umount /mnt/out; umount /mnt/src
echo o > /proc/sysrq-trigger; sleep 30
EOF
}
#RECIPE-END
RECIPE=$(sed -n '/^#RECIPE-BEGIN/,/^#RECIPE-END/p' "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)

LOG_NAME=zfsvm
# shellcheck source=scripts/log.sh
source "$REPO/scripts/log.sh"

# --- host side: packages -------------------------------------------------------------------
enable_contrib() { # zfs-dkms and zfsutils-linux live in contrib
  grep -q '^Components:.*contrib' "$SOURCES" && return
  sed -i 's/^Components: main$/Components: main contrib/' "$SOURCES"
}

apt_update() {
  local i err
  for i in 1 2 3 4 5; do # another apt may hold the lists lock for a while
    if err=$(apt-get update -q -o DPkg::Lock::Timeout=900 2>&1 >/dev/null); then
      [[ $err == *"Failed to fetch"* ]] && die "cannot fetch packages from Debian: $err"
      return 0
    fi
    [[ $err == *"lock"* ]] || die "cannot fetch packages from Debian: $err"
    sleep 20
  done
  die "apt-get update: lists lock still held: $err"
}

apt_install() {
  local err
  err=$("${APT[@]}" "$@" 2>&1 >/dev/null) && return 0
  [[ $err == *"Failed to fetch"* || $err == *"Unable to locate"* || $err == *"Temporary failure"* ]] &&
    die "cannot fetch packages from Debian: $err"
  echo "$err" >&2; return 1
}

host_tools() {
  local missing=()
  command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
  command -v zstd >/dev/null || missing+=(zstd)
  [ ${#missing[@]} -eq 0 ] && return
  log "installing ${missing[*]}"; apt_update; apt_install "${missing[@]}"
}

# --- build -----------------------------------------------------------------------------------
# Cache layout: vmlinuz-KVER, modules-KVER-zfsZV.tar (the dkms-built subset),
# initrd-KVER-zfsZV-RECIPE.zst; "current" names the newest complete initrd.
kernel_and_zfs() { # installs kernel + headers + zfs-dkms, builds the module; sets KVER ZV
  KVER=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
    sed -n 's/^linux-image-\([^ ,]*\).*/\1/p' || true)
  ZV=$(dpkg-query -W -f='${Version}' zfs-dkms 2>/dev/null | cut -d- -f1 || true)
  if [ -n "$KVER" ] && [ -n "$ZV" ] && [ -s "$CACHE/modules-$KVER-zfs$ZV.tar" ]; then return; fi
  phase "installing kernel, headers, dkms (apt)"
  apt_install linux-image-amd64 linux-headers-amd64 dkms build-essential
  KVER=$(dpkg-query -W -f='${Depends}' linux-image-amd64 | sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
  phase "installing zfs-dkms and building the module for $KVER (~6 min on 2 cores)"
  # Its postinst tries the running (host) kernel, which has no headers: that part may fail.
  apt_install zfs-dkms || true
  dpkg-query -W -f='${Status}' zfs-dkms | grep -q 'ok installed' || dpkg --configure -a || true
  ZV=$(dpkg-query -W -f='${Version}' zfs-dkms | cut -d- -f1)
  [ -n "$ZV" ] || die "zfs-dkms did not install"
  if ! dkms status -m zfs -v "$ZV" -k "$KVER" | grep -q installed; then
    dkms build zfs/"$ZV" -k "$KVER" >/dev/null
    dkms install zfs/"$ZV" -k "$KVER" >/dev/null
  fi
  phase "saving kernel $KVER and module subset"
  cp "/boot/vmlinuz-$KVER" "$CACHE/vmlinuz-$KVER"
  { echo "lib/modules/$KVER/modules.order"; echo "lib/modules/$KVER/modules.builtin"
    echo "lib/modules/$KVER/modules.builtin.modinfo"
    for m in "${GUEST_MODS[@]}"; do modprobe -S "$KVER" --show-depends "$m"; done |
      awk '$1 == "insmod" { print substr($2, 2) }'
  } | sort -u | tar -C / -cf "$CACHE/modules-$KVER-zfs$ZV.tar.tmp" -T -
  mv "$CACHE/modules-$KVER-zfs$ZV.tar.tmp" "$CACHE/modules-$KVER-zfs$ZV.tar"
}

build_rootfs() { # $1 = output initrd path
  local root err pkgs
  root=$(mktemp -d -t nasui-zfsvm-root.XXXX)
  pkgs=$(IFS=,; echo "${GUEST_PKGS[*]}")
  phase "building the guest rootfs (mmdebstrap: ${GUEST_PKGS[*]})"
  # The host's deb822 sources file (with contrib) serves as the guest's mirror list.
  if ! err=$(mmdebstrap --variant=minbase --include="$pkgs" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    bookworm "$root" "$SOURCES" 2>&1); then
    rm -rf "$root"
    [[ $err == *"Failed to fetch"* || $err == *"Unable to locate"* ]] &&
      die "cannot fetch packages from Debian: $(echo "$err" | grep -m3 -E 'Failed|Unable')"
    die "mmdebstrap failed: $(echo "$err" | tail -n 20)"
  fi
  tar -C "$root" -xf "$CACHE/modules-$KVER-zfs$ZV.tar"
  # modules added to GUEST_MODS after that tar was cached: copy them (and deps) from the host
  for m in "${GUEST_MODS[@]}"; do modprobe -S "$KVER" --show-depends "$m"; done |
    awk '$1 == "insmod" { print $2 }' | sort -u | while read -r f; do
      [ -e "$root$f" ] || cp --parents "$f" "$root"; done
  depmod -b "$root" "$KVER"
  guest_init > "$root/init"; chmod 755 "$root/init"
  phase "packing the initramfs"
  (cd "$root" && find . -xdev | LC_ALL=C sort | cpio -o -H newc --quiet | zstd -q -T0 -9) \
    > "$1.tmp"
  mv "$1.tmp" "$1"; rm -rf "$root"
}

build() {
  mkdir -p "$CACHE"
  if [ -f "$CACHE/current" ]; then
    local cur; cur=$(cat "$CACHE/current")
    if [[ $cur == *"-$RECIPE.zst" ]] && [ -s "$CACHE/$cur" ] && [ "${1:-}" != force ]; then
      log "cache hit: $CACHE/$cur"; host_tools; return
    fi
  fi
  phase "building in $CACHE (recipe $RECIPE)"
  enable_contrib; apt_update
  apt_install qemu-system-x86 qemu-utils mmdebstrap cpio zstd kmod
  kernel_and_zfs
  local initrd="initrd-$KVER-zfs$ZV-$RECIPE.zst"
  [ -s "$CACHE/$initrd" ] || build_rootfs "$CACHE/$initrd"
  echo "$initrd" > "$CACHE/current"
  find "$CACHE" -maxdepth 1 -name 'initrd-*.zst' ! -name "$initrd" -delete  # stale recipes
  phase "build done: $(du -h "$CACHE/vmlinuz-$KVER" "$CACHE/$initrd" | awk '{print $2" "$1}' | xargs)"
}

# --- run -------------------------------------------------------------------------------------
QPID=""
OUT=""
cleanup() { # whatever happens, no qemu is left running and no disk image is left behind
  if [ -n "$QPID" ] && kill -0 "$QPID" 2>/dev/null; then
    log "stopping qemu (pid $QPID)"; kill "$QPID" 2>/dev/null || true
    sleep 1; kill -9 "$QPID" 2>/dev/null || true
  fi
  [ -n "${TAILPID:-}" ] && kill "$TAILPID" 2>/dev/null || true
  [ -n "${HCPID:-}" ] && kill "$HCPID" 2>/dev/null || true  # the host-checks helper
  [ -n "$OUT" ] && rm -f "$OUT"/disk*.img
}

boot() { # $1 = job script text ("" for an interactive shell); returns the job's exit status
  local job=$1 initrd kver cur
  cur=$(cat "$CACHE/current"); initrd="$CACHE/$cur"
  kver=${cur#initrd-}; kver=${kver%-zfs*}
  OUT=${NASUI_ZFSVM_OUT:-$(mktemp -d -t nasui-zfsvm.XXXX)}
  mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
  rm -f "$OUT"/rc "$OUT"/console.log "$OUT"/job.log "$OUT"/job.sh
  : > "$OUT/console.log"; : > "$OUT/job.log"
  trap cleanup EXIT
  trap 'log "interrupted"; exit 130' INT TERM
  local drives=() fwd="" i f
  for i in $(seq 1 "${NASUI_ZFSVM_DISKS:-8}"); do
    truncate -s "${NASUI_ZFSVM_DISK_SIZE:-1G}" "$OUT/disk$i.img"
    drives+=(-drive "file=$OUT/disk$i.img,format=raw,if=none,id=d$i,cache=unsafe"
      -device "virtio-blk-pci,drive=d$i,serial=NASUI$(printf %04d "$i")")
  done
  [ "${NASUI_ZFSVM_SATA:-1}" = 1 ] && sata_disk "$kver"
  [ -n "$job" ] && printf '%s\n' "$SATA_PRELUDE" "$job" > "$OUT/job.sh"
  for f in ${NASUI_ZFSVM_FWD:-}; do fwd+=",hostfwd=tcp:127.0.0.1:$f"; done
  # host-side iSCSI checks (LIO lane): one host port always reaches the guest's port 3260
  local hc_port=${NASUI_ZFSVM_ISCSI_PORT:-$(host_free_port)}
  fwd+=",hostfwd=tcp:127.0.0.1:$hc_port-:3260"
  # host-side NFS checks (libnfs): NFSv4 needs only the one TCP port 2049
  local nfs_port=${NASUI_ZFSVM_NFS_PORT:-$(host_free_port)}
  while [ "$nfs_port" = "$hc_port" ]; do nfs_port=$(host_free_port); done
  fwd+=",hostfwd=tcp:127.0.0.1:$nfs_port-:2049"
  # NFSv3 adds the MOUNT protocol: the guest's tests pin rpc.mountd to 20048 (no rpcbind needed)
  local mountd_port=${NASUI_ZFSVM_MOUNTD_PORT:-$(host_free_port)}
  while [ "$mountd_port" = "$hc_port" ] || [ "$mountd_port" = "$nfs_port" ]; do
    mountd_port=$(host_free_port); done
  fwd+=",hostfwd=tcp:127.0.0.1:$mountd_port-:20048"
  # SMB: the guest's tests run smbd on 4450 (one TCP port, no NetBIOS)
  local smb_port=${NASUI_ZFSVM_SMB_PORT:-$(host_free_port)}
  while [ "$smb_port" = "$hc_port" ] || [ "$smb_port" = "$nfs_port" ] ||
    [ "$smb_port" = "$mountd_port" ]; do smb_port=$(host_free_port); done
  fwd+=",hostfwd=tcp:127.0.0.1:$smb_port-:4450"
  rm -f "$OUT"/host_req_* "$OUT"/host_ack_* "$OUT"/host_res_* "$OUT"/host_checks.*
  local serial=(-serial "file:$OUT/console.log" -serial "file:$OUT/job.log" -display none)
  [ -z "$job" ] && serial=(-nographic)
  phase "booting the VM ($kver, TCG, ${NASUI_ZFSVM_DISKS:-8} disks, out=$OUT)"
  local cmd=(qemu-system-x86_64 -accel tcg -cpu max -smp "$(nproc)" -m "${NASUI_ZFSVM_MEM:-3072}"
    -no-reboot -kernel "$CACHE/vmlinuz-$kver" -initrd "$initrd"
    -append "console=ttyS0 rdinit=/init panic=-1 loglevel=3 net.ifnames=0"
    "${drives[@]}" -device virtio-rng-pci
    -virtfs "local,path=$REPO,mount_tag=src,security_model=none,readonly=on,id=src"
    -virtfs "local,path=$OUT,mount_tag=out,security_model=none,id=out"
    -netdev "user,id=n0$fwd" -device virtio-net-pci,netdev=n0 "${serial[@]}")
  if [ -z "$job" ]; then "${cmd[@]}"; return; fi
  "${cmd[@]}" </dev/null >"$OUT/qemu.log" 2>&1 &
  QPID=$!
  start_host_checks "$hc_port" "$nfs_port" "$mountd_port" "$smb_port"
  watch_boot || return 1
  tail -n +1 -f --pid="$QPID" "$OUT/job.log" & TAILPID=$!
  watch_run || return 1
  wait "$TAILPID" 2>/dev/null || true; TAILPID=""
  phase "VM stopped"
  [ -f "$OUT/rc" ] || { tail -n 30 "$OUT/console.log"; die "the VM ended without a result"; }
  return "$(cat "$OUT/rc")"
}

# --- SMART: one emulated SATA disk (qemu's ide-hd answers SMART; virtio disks do not) ------
# Kept out of the cached recipe: the AHCI/sd modules and the host's own smartctl (Debian 12 on
# both sides, its libraries are already in the guest) are staged in OUT at each boot, so adding
# SMART did not rebuild the initramfs. The job's prelude loads them before the tests start.
SATA_PRELUDE=""
sata_disk() { # $1 = guest kernel version; appends to drives, sets SATA_PRELUDE
  local smartctl mods
  smartctl=$(command -v smartctl || echo /usr/sbin/smartctl)
  [ -x "$smartctl" ] || { log "no smartctl on the host (apt-get install smartmontools): no SATA disk"; return 0; }
  mods=$(modprobe -S "$1" --show-depends -a ahci sd_mod 2>/dev/null | awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++')
  [ -n "$mods" ] || { log "no ahci/sd_mod modules for $1 on the host: no SATA disk"; return 0; }
  mkdir -p "$OUT/sata"; rm -f "$OUT"/sata/*
  cp "$smartctl" "$OUT/sata/smartctl"
  local m list=""
  for m in $mods; do cp "$m" "$OUT/sata/"; list+=" /mnt/out/sata/$(basename "$m")"; done
  truncate -s 256M "$OUT/disk-sata0.img"
  drives+=(-device ahci,id=ahci -drive "file=$OUT/disk-sata0.img,format=raw,if=none,id=sata0,cache=unsafe"
    -device ide-hd,drive=sata0,bus=ahci.0,serial=QMSATA0001)
  # insmod of a module already loaded says "File exists": harmless
  SATA_PRELUDE="for m in$list; do insmod \$m 2>/dev/null; done; udevadm settle -t 30
export PATH=\$PATH:/mnt/out/sata"
}

# --- host-side checks (LIO lane) -----------------------------------------------------------
# Guest tests ask for checks by files in the OUT dir; the helper runs real host iSCSI clients
# against the forwarded port and answers (protocol: tests/vm/host_checks.py). It idles
# otherwise, ends with the run (OUT/rc) and is killed by cleanup.
HCPID=""
host_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
start_host_checks() { # $1..$4 = host ports to guest 3260 (iSCSI), 2049 (NFS), 20048 (mountd), 4450 (SMB)
  local helper=${NASUI_ZFSVM_HOST_CHECKS:-$REPO/tests/vm/host_checks.py}
  [ "$helper" = none ] && return 0
  [ -f "$helper" ] || die "NASUI_ZFSVM_HOST_CHECKS: $helper not found"
  case $helper in
    *.py) python3 "$helper" "$OUT" "$1" "$2" "$3" "$4" >>"$OUT/host_checks.out" 2>&1 & ;;
    *) bash "$helper" "$OUT" "$1" "$2" "$3" "$4" >>"$OUT/host_checks.out" 2>&1 & ;;
  esac
  HCPID=$!
  log "host checks: $helper (pid $HCPID), host 127.0.0.1:$1 -> guest :3260, :$2 -> :2049, :$3 -> :20048, :$4 -> :4450"
}

watch_boot() { # the boot watchdog: the guest must print NASUI_READY in time
  local limit=$(($(date +%s) + ${NASUI_ZFSVM_BOOT:-120}))
  until grep -q '^NASUI_READY' "$OUT/console.log"; do
    if ! kill -0 "$QPID" 2>/dev/null; then
      tail -n 30 "$OUT/console.log" "$OUT/qemu.log" >&2; log "FAIL: qemu exited during boot"
      return 1
    fi
    if [ "$(date +%s)" -ge "$limit" ]; then
      tail -n 30 "$OUT/console.log" >&2
      log "FAIL: the VM did not reach ready within ${NASUI_ZFSVM_BOOT:-120}s: killed"; return 1
    fi
    sleep 0.5
  done
  phase "guest ready: $(grep -E '^NASUI_(T|READY)' "$OUT/console.log" | tr '\n' ';')"
}

watch_run() { # the overall limit for the job
  local limit=$(($(date +%s) + ${NASUI_ZFSVM_TIMEOUT:-2700}))
  while kill -0 "$QPID" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$limit" ]; then
      log "FAIL: the VM run passed ${NASUI_ZFSVM_TIMEOUT:-2700}s: killed"; return 1
    fi
    sleep 1
  done
  QPID=""
}

pytest_job() { # the guest command line; args are passed through, quoted for sh
  local args="" a
  for a in "$@"; do args+=" '${a//\'/\'\\\'\'}'"; done
  local paths=" tests/vm"  # unless the arguments name test files themselves
  for a in "$@"; do case $a in tests/*) paths="" ;; esac; done
  local color=no
  [ -t 1 ] && color=yes  # the guest's serial port looks like a terminal: decide here
  cat <<EOF
export PYTHONDONTWRITEBYTECODE=1 NASUI_VM_OUT=/mnt/out
echo "NASUI_T pytest_start \$(cut -d' ' -f1 /proc/uptime)"
python3 -m pytest -c tests/vm/pytest.ini --rootdir=. --color=$color$paths$args
EOF
}

capture() {
  local rc=0
  boot "export PYTHONDONTWRITEBYTECODE=1; python3 tests/vm/capture.py /mnt/out/fixtures" || rc=$?
  [ "$rc" -eq 0 ] || die "capture failed (exit $rc)"
  mkdir -p "$REPO/tests/zfs/fixtures"
  cp "$OUT"/fixtures/* "$REPO/tests/zfs/fixtures/"
  log "fixtures written: $(ls "$OUT"/fixtures | wc -l) files in tests/zfs/fixtures/"
}

case "${1:-}" in
  build) build "${2:-}" ;;
  test)
    shift; build; rc=0
    boot "$(pytest_job "$@")" || rc=$?
    log "VM tests finished: exit status $rc (total $(($(date +%s) - T0))s)"; exit "$rc" ;;
  capture) build; capture ;;
  shell) build; boot "" ;;
  run) # one command in the guest, from the checkout's root, e.g. a benchmark
    shift; build; rc=0
    boot "export PYTHONDONTWRITEBYTECODE=1; $(printf "'%s' " "${@//\'/\'\\\'\'}")" || rc=$?
    exit "$rc" ;;
  *) echo "usage: $0 build [force] | test [pytest args] | capture | shell | run CMD..." >&2
     exit 2 ;;
esac
