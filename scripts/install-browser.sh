#!/usr/bin/env bash
# Installs the browser the tests in test/browser drive: Debian's chromium
# (/usr/bin/chromium), with apt-get. Idempotent: does nothing when it is already
# there. Never downloads a browser build of its own (no `npx playwright install`).
#
#   scripts/install-browser.sh
#
# Uses sudo only when not run as root. $CHROMIUM_PATH, when set, names a browser to
# use instead; the script then only checks that it exists.
set -euo pipefail

say() { printf 'install-browser: %s\n' "$*"; }

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then
    say "using \$CHROMIUM_PATH=$CHROMIUM_PATH ($("$CHROMIUM_PATH" --version 2>/dev/null || echo 'version unknown'))"
    exit 0
  fi
  say "error: \$CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file" >&2
  exit 1
fi

if [ -x /usr/bin/chromium ]; then
  say "chromium is already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  say "error: /usr/bin/chromium is missing and apt-get is not available; install Chromium yourself and set CHROMIUM_PATH" >&2
  exit 1
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    say "error: not root and sudo is not available: run 'apt-get install chromium' as root" >&2
    exit 1
  fi
  SUDO=(sudo)
fi

say "chromium is missing: installing Debian's chromium with apt-get"
say "running: ${SUDO[*]:+${SUDO[*]} }apt-get update"
"${SUDO[@]}" apt-get update -q
say "running: ${SUDO[*]:+${SUDO[*]} }apt-get install -y --no-install-recommends chromium"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium

if [ ! -x /usr/bin/chromium ]; then
  say "error: apt-get finished but /usr/bin/chromium is still missing" >&2
  exit 1
fi
say "installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
