#!/usr/bin/env bash
# Run by `npm test` (pretest) and so by CI: what the test suite needs beyond Node and
# Terraform, installed when missing. The provider executables' tests (test/install) sign
# a release with GnuPG and start the linux_arm64 executable under qemu-aarch64 with
# Debian's arm64 C libraries. On a machine without apt-get this fails loudly with what
# to install, rather than letting a test skip.
set -euo pipefail

APT_PACKAGES=()
command -v gpg >/dev/null 2>&1 || APT_PACKAGES+=(gnupg)
command -v qemu-aarch64 >/dev/null 2>&1 || APT_PACKAGES+=(qemu-user)
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || APT_PACKAGES+=(libc6-arm64-cross)
[ -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ] || APT_PACKAGES+=(libstdc++6-arm64-cross)
if [ "${#APT_PACKAGES[@]}" -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing ${APT_PACKAGES[*]} (apt-get) for test/install ..."
  if ! command -v apt-get >/dev/null 2>&1 \
    || ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
    || ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}"; then
    echo "error: could not install ${APT_PACKAGES[*]}: test/install needs gpg, qemu-aarch64 and the arm64 C libraries (Debian/Ubuntu: apt-get install gnupg qemu-user libc6-arm64-cross libstdc++6-arm64-cross)" >&2
    exit 1
  fi
fi
gpg --version | sed -n 1p
qemu-aarch64 -version | sed -n 1p
