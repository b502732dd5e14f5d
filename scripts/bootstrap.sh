#!/usr/bin/env bash
# Set up a development/CI environment on Debian or Raspberry Pi OS: system packages, venv, the package.
# Idempotent: re-running only installs what changed. Used by scripts/test and scripts/simulate.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v python3 >/dev/null || need_apt+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
if [ "${CARDTABLE_SKIP_SYSTEM:-0}" != 1 ] && [ "${1:-}" = "--test" ]; then
  # The test suite starts its own brokers; it needs the mosquitto binary (not a running service).
  command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need_apt+=(mosquitto)
  # The floor screen's end-to-end test drives Debian's Chromium (never a browser download).
  [ -x /usr/bin/chromium ] || need_apt+=(chromium)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "bootstrap: installing ${need_apt[*]} with apt-get" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

VENV=${CARDTABLE_VENV:-.venv}
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
# One venv for both commands. The stamp records the pyproject hash and the extras installed; a command
# whose extras are already there (simulate after test) installs nothing, and a reinstall keeps the extras
# the venv had, so switching between ./scripts/simulate and ./scripts/test never reinstalls twice.
want=""; [ "${1:-}" = "--test" ] && want="camera,test"
stamp="$VENV/.cardtable-installed"
have_hash=""; have_extras=""
if [ -f "$stamp" ]; then read -r have_hash have_extras < "$stamp" || true; fi
hash="$(sha256sum pyproject.toml | cut -c1-16)"
# shellcheck disable=SC2086  # word splitting of the comma lists is the point
extras="$(printf '%s\n' ${have_extras//,/ } ${want//,/ } | sort -u | paste -sd, -)"
if [ "${have_hash:-}" != "$hash" ] || [ "$extras" != "${have_extras:-}" ]; then
  spec="."; [ -n "$extras" ] && spec=".[$extras]"
  echo "bootstrap: installing cardtable${extras:+[$extras]} into $VENV (once; later runs skip this)" >&2
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -e "$spec"
  echo "$hash $extras" > "$stamp"
fi
