#!/usr/bin/env bash
# Installs Debian's chromium for the example page's browser test (test/example/page.browser.test.ts), which
# drives /usr/bin/chromium with playwright-core and never downloads a browser of its own. Idempotent: with
# chromium already there it changes nothing. Needs apt-get and root; without them it exits 1 and says why
# (the browser test then skips with that message). CHROMIUM_PATH overrides where chromium is looked for
# (the tests of this script point it at a missing file).
set -euo pipefail

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"

# Debian's launcher prints a shell warning on stderr for --version; only the version line is wanted.
version_of() { "$1" --version 2>/dev/null | head -n 1 || true; }

if [ -x "$chromium_path" ]; then
  echo "install-chromium: $chromium_path is already installed ($(version_of "$chromium_path")); nothing to do."
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: cannot install chromium: $chromium_path is missing and apt-get is not available (not a Debian-based system)." \
    "Install Debian's chromium package, or a Chromium at $chromium_path, by hand; the browser test skips until then." >&2
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium: cannot install chromium: $chromium_path is missing and installing it needs root (apt-get install)." \
    "Run: sudo scripts/install-chromium.sh. The browser test skips until then." >&2
  exit 1
fi

echo "install-chromium: $chromium_path is missing; installing Debian's chromium package (apt-get update && apt-get install -y chromium)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium

if [ ! -x "$chromium_path" ]; then
  echo "install-chromium: apt-get installed the chromium package, but $chromium_path is still missing; the browser test skips." >&2
  exit 1
fi
echo "install-chromium: installed $chromium_path ($(version_of "$chromium_path"))."
