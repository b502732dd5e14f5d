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
extras=""; [ "${1:-}" = "--test" ] && extras="[test]"
stamp="$VENV/.cardtable-installed"
want="$(sha256sum pyproject.toml | cut -c1-16)$extras"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "bootstrap: installing cardtable$extras into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -e ".$extras"
  echo "$want" > "$stamp"
fi
