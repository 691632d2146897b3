#!/usr/bin/env bash
# Makes sure the system packages the test suites use are present: a real etcd (the etcd-backed
# suites are never skipped), the CNI reference plugins and iproute2 (the CNI end-to-end test), and
# Chromium (the simulator report screenshot). Installs them with apt-get when running as root;
# otherwise says what to install and fails.
set -euo pipefail

declare -A needs=(
  [/usr/bin/etcd]=etcd-server
  [/usr/bin/etcdctl]=etcd-client
  [/usr/lib/cni/ptp]=containernetworking-plugins
  [/usr/lib/cni/host-local]=containernetworking-plugins
  [/usr/sbin/ip]=iproute2
  [/usr/bin/chromium]=chromium
)

missing=()
for path in "${!needs[@]}"; do
  [ -x "$path" ] || missing+=("${needs[$path]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

mapfile -t packages < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
  echo "ipamkit tests need these Debian packages: ${packages[*]}" >&2
  echo "install them with: sudo apt-get install -y ${packages[*]}" >&2
  exit 1
fi
echo "installing ${packages[*]} with apt-get" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
