#!/bin/bash
# Install the Debian packages a make target needs, only those missing. As root this runs apt-get;
# otherwise it names what is missing and stops. Usage: sysdeps.sh PACKAGE...
set -euo pipefail
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing Debian packages: ${missing[*]}. Install them (sudo apt-get install ${missing[*]}) and run again." >&2
  exit 1
fi
echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_get() { apt-get -q -o DPkg::Lock::Timeout=600 "$@"; }
if ! apt_get install -y --no-install-recommends "${missing[@]}" >/tmp/nasui-apt.log 2>&1; then
  apt_get update >/dev/null 2>&1 || { echo "cannot fetch package lists from Debian (apt-get update failed)" >&2; exit 1; }
  apt_get install -y --no-install-recommends "${missing[@]}" >/tmp/nasui-apt.log 2>&1 || {
    tail -n 20 /tmp/nasui-apt.log >&2
    echo "cannot install ${missing[*]} from Debian (see above)" >&2; exit 1; }
fi
# The panel runs its own tgtd: a system-wide one would hold the iSCSI port.
if printf '%s\n' "${missing[@]}" | grep -qx tgt && command -v systemctl >/dev/null \
  && systemctl is-active --quiet tgt 2>/dev/null; then
  echo "Disabling the system tgt service: nasui runs and supervises its own target."
  systemctl disable --now tgt >/dev/null 2>&1 || true
fi
# The panel runs its own smbd (wrapped, on its own port): Debian's would serve the host's shares.
if printf '%s\n' "${missing[@]}" | grep -qx samba && command -v systemctl >/dev/null; then
  for unit in smbd nmbd samba-ad-dc; do
    if systemctl is-enabled --quiet "$unit" 2>/dev/null || systemctl is-active --quiet "$unit" 2>/dev/null; then
      echo "Disabling the system $unit service: nasui runs and supervises its own smbd."
      systemctl disable --now "$unit" >/dev/null 2>&1 || true
    fi
  done
fi
# The replication tests run their own sshd on a loopback port: Debian's would open port 22.
if printf '%s\n' "${missing[@]}" | grep -qx openssh-server && command -v systemctl >/dev/null \
  && systemctl is-enabled --quiet ssh 2>/dev/null; then
  echo "Disabling the system ssh service installed for the tests: they run their own sshd."
  systemctl disable --now ssh >/dev/null 2>&1 || true
fi
# The metrics test starts its own Prometheus on a loopback port: Debian's would scrape and keep data.
if printf '%s\n' "${missing[@]}" | grep -qx prometheus && command -v systemctl >/dev/null \
  && systemctl is-enabled --quiet prometheus 2>/dev/null; then
  echo "Disabling the system prometheus service installed for the tests: they run their own."
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
# The panel writes its own NUT configuration and runs its own driver, upsd and upsmon.
if printf '%s\n' "${missing[@]}" | grep -qx -e nut-server -e nut-client && command -v systemctl >/dev/null; then
  for unit in nut-server nut-monitor nut-driver nut-driver.target nut.target; do
    if systemctl is-enabled --quiet "$unit" 2>/dev/null || systemctl is-active --quiet "$unit" 2>/dev/null; then
      echo "Disabling the system $unit service: nasui runs and supervises its own NUT daemons."
      systemctl disable --now "$unit" >/dev/null 2>&1 || true
    fi
  done
fi
