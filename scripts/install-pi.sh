#!/usr/bin/env bash
# Install cardtable on Raspberry Pi OS (bookworm): Mosquitto with our config, user, pinned venv, config,
# the daemon's systemd unit and optionally the floor screen's.
#
#   sudo scripts/install-pi.sh --table t1 [--mqtt-user t1 --mqtt-password-file FILE] [--broker HOST]
#        [--no-broker] [--broker-tls] [--floor] [--camera] [--prefix /opt/cardtable] [--start] [--dry-run]
#
#   --broker HOST   the tables' broker (default localhost: Mosquitto is installed here unless --no-broker)
#   --broker-tls    also the TLS listener on 8883 (certificates in /etc/mosquitto/certs/, see
#                   config/mosquitto/cardtable-tls.conf)
#   --floor         the floor screen too (user cardtable-floor, /etc/cardtable/floor.toml, its unit)
#   --camera        OpenCV from requirements/pi-camera.lock, picamera2, /dev/media* and /dev/dma_heap access
#   --dry-run       print every step instead of doing it (no root needed)
#
# Idempotent: run it again after a `git pull`; existing configs, credentials and broker users are kept.
set -euo pipefail

TABLE=t1
BROKER=localhost
PREFIX=/opt/cardtable
MQTT_USER=""
MQTT_PASSWORD_FILE=""
LOCAL_BROKER=1
BROKER_TLS=0
FLOOR=0
CAMERA=0
START=0
DRY=0
SRC="$(cd "$(dirname "$0")/.." && pwd)"

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
    case "$1" in
        --table) TABLE="$2"; shift 2 ;;
        --broker) BROKER="$2"; shift 2 ;;
        --no-broker) LOCAL_BROKER=0; shift ;;
        --broker-tls) BROKER_TLS=1; shift ;;
        --floor) FLOOR=1; shift ;;
        --camera) CAMERA=1; shift ;;
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
if [ -n "$MQTT_USER" ] && [ -z "$MQTT_PASSWORD_FILE" ]; then
    echo "install-pi.sh: --mqtt-user needs --mqtt-password-file (a file holding the password)" >&2
    exit 2
fi
[ "$BROKER" = localhost ] || [ "$BROKER" = 127.0.0.1 ] || LOCAL_BROKER=0

run() { if [ "$DRY" = 1 ]; then echo "+ $*"; else "$@"; fi; }
step() { echo "==> $*"; }
# write DEST MODE OWNER: stdin to DEST unless it exists (configs and secrets are never overwritten).
write_once() {
    if [ -e "$1" ]; then echo "    $1 exists: kept"; cat >/dev/null; return; fi
    if [ "$DRY" = 1 ]; then echo "+ write $1 (mode $2, owner $3)"; cat >/dev/null; return; fi
    (umask 077; cat > "$1")
    chmod "$2" "$1"
    chown "$3" "$1"
}

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "install-pi.sh: run as root (sudo), or use --dry-run to see the steps" >&2
    exit 2
fi

step "system packages"
pkgs=(python3-venv python3-lgpio)
[ "$LOCAL_BROKER" = 1 ] && pkgs+=(mosquitto mosquitto-clients)
[ "$CAMERA" = 1 ] && pkgs+=(python3-picamera2)
run apt-get update -q
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}"

step "users: cardtable in dialout (serial hubs), gpio (tap, console), video (camera)"
for g in dialout gpio video; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
done
if ! id cardtable >/dev/null 2>&1; then
    run useradd --system --home-dir /var/lib/cardtable --no-create-home --shell /usr/sbin/nologin \
        --groups dialout,gpio,video cardtable
else
    run usermod -a -G dialout,gpio,video cardtable
fi
if [ "$FLOOR" = 1 ] && ! id cardtable-floor >/dev/null 2>&1; then
    run useradd --system --home-dir /var/lib/cardtable-floor --no-create-home --shell /usr/sbin/nologin \
        cardtable-floor
fi

if [ "$CAMERA" = 1 ]; then
    step "camera: /dev/dma_heap and /dev/media* for group video (the Pi camera through libcamera)"
    rule=/etc/udev/rules.d/60-cardtable-camera.rules
    printf '%s\n' 'SUBSYSTEM=="dma_heap", GROUP="video", MODE="0660"' \
                  'SUBSYSTEM=="media", GROUP="video", MODE="0660"' | write_once "$rule" 0644 root:root
    run udevadm control --reload
    run udevadm trigger --subsystem-match=dma_heap --subsystem-match=media
fi

step "virtual environment in $PREFIX/venv, pinned by requirements/pi.lock"
run mkdir -p "$PREFIX"
# --system-site-packages: lgpio and picamera2 come from Raspberry Pi OS, not from PyPI.
[ -x "$PREFIX/venv/bin/python" ] || run python3 -m venv --system-site-packages "$PREFIX/venv"
run "$PREFIX/venv/bin/pip" install -q --upgrade pip
locks=(-r "$SRC/requirements/pi.lock")
[ "$CAMERA" = 1 ] && locks+=(-r "$SRC/requirements/pi-camera.lock")
run "$PREFIX/venv/bin/pip" install -q "${locks[@]}"
# The package itself without resolving again: its dependencies are exactly the pins above.
run "$PREFIX/venv/bin/pip" install -q --no-deps --force-reinstall "$SRC"

if [ "$LOCAL_BROKER" = 1 ]; then
    step "Mosquitto: password file, ACLs (a table writes only under cardtable/$TABLE/), persistence"
    run install -m 0644 "$SRC/config/mosquitto/cardtable.conf" /etc/mosquitto/conf.d/cardtable.conf
    if [ "$BROKER_TLS" = 1 ]; then
        for f in ca.crt broker.crt broker.key; do
            [ "$DRY" = 1 ] || [ -e "/etc/mosquitto/certs/$f" ] || {
                echo "install-pi.sh: --broker-tls needs /etc/mosquitto/certs/$f" >&2; exit 2; }
        done
        run install -m 0644 "$SRC/config/mosquitto/cardtable-tls.conf" /etc/mosquitto/conf.d/cardtable-tls.conf
    fi
    write_once /etc/mosquitto/cardtable.acl 0640 root:mosquitto < "$SRC/config/mosquitto/cardtable.acl"
    if [ "$DRY" = 1 ] || ! grep -qx "user $TABLE" /etc/mosquitto/cardtable.acl; then
        acl_block="# --- table $TABLE (added by install-pi.sh)
user $TABLE
topic write cardtable/$TABLE/#
topic read cardtable/$TABLE/cmd/#"
        if [ "$DRY" = 1 ]; then echo "+ add ACL block for user $TABLE (if missing)"; else
            printf '\n%s\n' "$acl_block" >> /etc/mosquitto/cardtable.acl; fi
    fi
    write_once /etc/mosquitto/cardtable.passwd 0640 root:mosquitto < /dev/null
    add_broker_user() {  # $1 user, $2 file with the password
        if [ "$DRY" = 1 ]; then echo "+ mosquitto_passwd -b /etc/mosquitto/cardtable.passwd $1 …"; return; fi
        grep -q "^$1:" /etc/mosquitto/cardtable.passwd || \
            mosquitto_passwd -b /etc/mosquitto/cardtable.passwd "$1" "$(cat "$2")"
    }
    [ -n "$MQTT_USER" ] && add_broker_user "$MQTT_USER" "$MQTT_PASSWORD_FILE"
    run systemctl enable mosquitto.service
    run systemctl restart mosquitto.service
fi

step "config /etc/cardtable/table.toml"
run install -d -m 0750 -o root -g cardtable /etc/cardtable
sed -e "s/^id = \"t1\"/id = \"$TABLE\"/" -e "s/^host = \"localhost\"/host = \"$BROKER\"/" \
    ${MQTT_USER:+-e "s|^# credentials_file = .*|credentials_file = \"/etc/cardtable/mqtt.credentials\"|"} \
    "$SRC/config/table.example.toml" | write_once /etc/cardtable/table.toml 0640 root:cardtable
if [ -n "$MQTT_USER" ]; then
    if [ "$DRY" = 1 ]; then echo "+ write /etc/cardtable/mqtt.credentials ($MQTT_USER:…, 0640 root:cardtable)"
    else printf '%s:%s\n' "$MQTT_USER" "$(cat "$MQTT_PASSWORD_FILE")" | \
            write_once /etc/cardtable/mqtt.credentials 0640 root:cardtable; fi
fi
run "$PREFIX/venv/bin/cardtable" run --config /etc/cardtable/table.toml --check

unit() {  # $1 unit file name: install it, with ExecStart under $PREFIX
    if [ "$DRY" = 1 ]; then echo "+ install $1 /etc/systemd/system/$1 (ExecStart under $PREFIX)"; return; fi
    sed "s|/opt/cardtable/|$PREFIX/|" "$SRC/systemd/$1" > "/etc/systemd/system/$1"
    chmod 0644 "/etc/systemd/system/$1"
}
step "systemd units"
unit cardtable.service
if [ "$CAMERA" = 1 ]; then
    run mkdir -p /etc/systemd/system/cardtable.service.d
    printf '%s\n' "# The Pi camera (libcamera): media controller and DMA heaps besides /dev/video*." "[Service]" \
        "DeviceAllow=char-media rw" "DeviceAllow=char-dma_heap rw" | \
        write_once /etc/systemd/system/cardtable.service.d/camera.conf 0644 root:root
fi
services=(cardtable.service)
if [ "$FLOOR" = 1 ]; then
    step "floor screen: /etc/cardtable/floor.toml, broker user floor, unit cardtable-floor.service"
    if [ "$LOCAL_BROKER" = 1 ] && [ ! -e /etc/cardtable/floor.broker-password ]; then
        if [ "$DRY" = 1 ]; then echo "+ new random broker password for user floor"; else
            head -c 18 /dev/urandom | base64 | write_once /etc/cardtable/floor.broker-password 0640 \
                root:cardtable-floor
            add_broker_user floor /etc/cardtable/floor.broker-password
        fi
    fi
    sed -e 's|^# password_file = .*|password_file = "/etc/cardtable/floor.broker-password"|' \
        -e 's|^sqlite = .*|sqlite = "/var/lib/cardtable-floor/floor.sqlite3"|' \
        "$SRC/config/floor.example.toml" | write_once /etc/cardtable/floor.toml 0640 root:cardtable-floor
    unit cardtable-floor.service
    services+=(cardtable-floor.service)
fi
run systemctl daemon-reload
run systemctl enable "${services[@]}"
if [ "$START" = 1 ]; then
    run systemctl restart "${services[@]}"
fi

cat <<MSG
==> done. Start: systemctl start ${services[*]}; logs: journalctl -u cardtable -f
    Check the installation: $PREFIX/venv/bin/cardtable doctor --config /etc/cardtable/table.toml
    Broker ACL block for this table (config/mosquitto/cardtable.acl):
      user $TABLE
      topic write cardtable/$TABLE/#
      topic read cardtable/$TABLE/cmd/#
MSG
