#!/usr/bin/env bash
# Installs every Debian package probebench needs (Debian 12, as root). Idempotent: prints nothing
# and touches nothing when all are present.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git
  gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi
  openocd qemu-system-arm qemu-system-misc gdb-multiarch
  libunicorn-dev libcapstone-dev libcjson-dev libelf-dev libdw-dev libusb-1.0-0-dev libcmocka-dev
  python3 python3-pyocd python3-jsonschema iproute2 procps
  clang llvm libclang-rt-14-dev clang-tidy clang-format
  valgrind
  chromium
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}; run this script as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
