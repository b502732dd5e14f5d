#!/usr/bin/env bash
# Install the cardtable daemon on Raspberry Pi OS (bookworm): user, venv, config, systemd unit.
#
#   sudo scripts/install-pi.sh --table t1 [--broker HOST] [--mqtt-user t1 --mqtt-password-file FILE]
#                              [--prefix /opt/cardtable] [--start] [--dry-run]
#
# Idempotent: an existing /etc/cardtable/table.toml or credentials file is never overwritten.
set -euo pipefail

TABLE=t1
BROKER=localhost
PREFIX=/opt/cardtable
MQTT_USER=""
MQTT_PASSWORD_FILE=""
START=0
DRY=0
SRC="$(cd "$(dirname "$0")/.." && pwd)"

usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
    case "$1" in
        --table) TABLE="$2"; shift 2 ;;
        --broker) BROKER="$2"; shift 2 ;;
        --prefix) PREFIX="$2"; shift 2 ;;
        --mqtt-user) MQTT_USER="$2"; shift 2 ;;
        --mqtt-password-file) MQTT_PASSWORD_FILE="$2"; shift 2 ;;
        --start) START=1; shift ;;
        --dry-run) DRY=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "install-pi.sh: unknown option $1" >&2; usage 2 ;;
    esac
done
case "$TABLE" in
    ""|*[!A-Za-z0-9_.-]*) echo "install-pi.sh: --table must be letters, digits, _ - . (got '$TABLE')" >&2; exit 2 ;;
esac

run() { if [ "$DRY" = 1 ]; then echo "+ $*"; else "$@"; fi; }
step() { echo "==> $*"; }

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install-pi.sh: run as root (sudo), or use --dry-run to see the steps" >&2
    exit 2
fi

step "system packages (python venv, lgpio for the GPIO pins)"
run apt-get install -y --no-install-recommends python3-venv python3-lgpio

step "user cardtable in groups dialout (serial hubs), gpio (tap sensor, console), video (camera)"
for g in dialout gpio video; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
done
if ! id cardtable >/dev/null 2>&1; then
    run useradd --system --home-dir /var/lib/cardtable --no-create-home --shell /usr/sbin/nologin \
        --groups dialout,gpio,video cardtable
else
    run usermod -a -G dialout,gpio,video cardtable
fi

step "virtual environment in $PREFIX/venv"
run mkdir -p "$PREFIX"
# --system-site-packages: lgpio comes from Raspberry Pi OS (python3-lgpio), not from PyPI.
run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install --upgrade pip
run "$PREFIX/venv/bin/pip" install "$SRC"

step "config /etc/cardtable/table.toml"
run install -d -m 0750 -o root -g cardtable /etc/cardtable
if [ ! -e /etc/cardtable/table.toml ]; then
    if [ "$DRY" = 1 ]; then
        echo "+ write /etc/cardtable/table.toml from config/table.example.toml (id = \"$TABLE\", host = \"$BROKER\")"
    else
        sed -e "s/^id = \"t1\"/id = \"$TABLE\"/" -e "s/^host = \"localhost\"/host = \"$BROKER\"/" \
            "$SRC/config/table.example.toml" > /etc/cardtable/table.toml
        if [ -n "$MQTT_USER" ]; then
            sed -i "s|^# credentials_file = .*|credentials_file = \"/etc/cardtable/mqtt.credentials\"|" \
                /etc/cardtable/table.toml
        fi
        chown root:cardtable /etc/cardtable/table.toml
        chmod 0640 /etc/cardtable/table.toml
    fi
fi
if [ -n "$MQTT_USER" ] && [ ! -e /etc/cardtable/mqtt.credentials ]; then
    if [ -z "$MQTT_PASSWORD_FILE" ]; then
        echo "install-pi.sh: --mqtt-user needs --mqtt-password-file" >&2
        exit 2
    fi
    if [ "$DRY" = 1 ]; then
        echo "+ write /etc/cardtable/mqtt.credentials ($MQTT_USER:…, mode 0640 root:cardtable)"
    else
        (umask 027; printf '%s:%s\n' "$MQTT_USER" "$(cat "$MQTT_PASSWORD_FILE")" > /etc/cardtable/mqtt.credentials)
        chown root:cardtable /etc/cardtable/mqtt.credentials
    fi
fi
run "$PREFIX/venv/bin/cardtable" run --config /etc/cardtable/table.toml --check

step "systemd unit"
if [ "$PREFIX" = /opt/cardtable ]; then
    run install -m 0644 "$SRC/systemd/cardtable.service" /etc/systemd/system/cardtable.service
elif [ "$DRY" = 1 ]; then
    echo "+ install cardtable.service with ExecStart under $PREFIX"
else
    sed "s|/opt/cardtable/|$PREFIX/|" "$SRC/systemd/cardtable.service" > /etc/systemd/system/cardtable.service
fi
run systemctl daemon-reload
run systemctl enable cardtable.service
if [ "$START" = 1 ]; then
    run systemctl restart cardtable.service
fi

cat <<MSG
==> done. Start with: systemctl start cardtable; logs: journalctl -u cardtable -f
    Broker ACL block for this table (config/mosquitto/cardtable.acl):
      user $TABLE
      topic write cardtable/$TABLE/#
      topic read cardtable/$TABLE/cmd/#
MSG
