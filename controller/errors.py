"""Errors of the controller package outside the core: one clear line each, naming the thing and the fix.

Exit codes: 2 for bad input (a flag, a config value, a file), 1 for a machine that is not ready (a port in
use, a broker out of reach, a device missing or not permitted). systemd's unit does not restart on 2.
"""

from __future__ import annotations

import errno
import grp
import os
from pathlib import Path


class CardtableError(Exception):
    """Base of all controller errors that are reported to the user as one clear line."""

    exit_code = 1


class UsageError(CardtableError, ValueError):
    """Bad input from the user: a file, a flag or a config value."""

    exit_code = 2


class SetupError(CardtableError):
    """The machine is not ready (device, permission, port, broker); the message says what to do."""

    exit_code = 1


# Which group usually grants access to a device, by path prefix (Debian / Raspberry Pi OS).
_DEVICE_GROUPS = (("/dev/tty", "dialout"), ("/dev/serial", "dialout"), ("/dev/gpio", "gpio"),
                  ("/dev/video", "video"), ("/dev/media", "video"), ("/dev/dma_heap", "video"))


def device_group(path: str | Path) -> str:
    """The group that owns the device (following symlinks), else the usual one for its kind."""
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (OSError, KeyError):
        text = str(path)
        return next((g for prefix, g in _DEVICE_GROUPS if text.startswith(prefix)), "the device's group")


def device_error(what: str, path: str | Path, exc: OSError, *, setting: str) -> SetupError:
    """One line for a device that cannot be opened: missing, not permitted, or busy."""
    if exc.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return SetupError(f"{what} {path} not found: plug it in (ls /dev/serial/by-id/) or fix {setting}")
    if exc.errno in (errno.EACCES, errno.EPERM):
        group = device_group(path)
        return SetupError(f"{what} {path}: permission denied: add the user to group {group} "
                          f"(sudo usermod -aG {group} $USER, then log in again)")
    if exc.errno == errno.EBUSY:
        return SetupError(f"{what} {path} is busy: another program has it open (fuser -v {path})")
    return SetupError(f"{what} {path}: {exc.strerror or exc}: check {setting}")


def port_error(host: str, port: int, exc: OSError, *, setting: str) -> SetupError:
    """One line for a listening socket that cannot be opened."""
    if exc.errno == errno.EADDRINUSE:
        return SetupError(f"port {port} on {host} is already in use: stop the other program "
                          f"(ss -ltnp 'sport = :{port}') or choose another port with {setting}")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return SetupError(f"port {port} on {host}: permission denied (ports below 1024 need root): "
                          f"choose a port above 1024 with {setting}")
    if exc.errno == errno.EADDRNOTAVAIL:
        return SetupError(f"address {host} is not on this machine: fix {setting}")
    return SetupError(f"cannot listen on {host}:{port}: {exc.strerror or exc}: check {setting}")


# CONNACK codes meaning "your credentials are wrong" (MQTT 3.1.1: 4 bad user/password, 5 not authorised;
# MQTT 5: 134, 135).
AUTH_CODES = frozenset({4, 5, 134, 135})


def broker_error(host: str, port: int, exc: BaseException, *, rc: int | None = None,
                 setting: str) -> SetupError:
    """One line for a broker that cannot be used: refused, unknown host, no answer, or bad credentials."""
    where = f"MQTT broker {host}:{port}"
    text = str(exc)
    if rc in AUTH_CODES:
        return SetupError(f"{where} refused the user name or password (CONNACK {rc}): fix the credentials "
                          f"({setting}) or the broker's password file")
    if rc is not None:
        return SetupError(f"{where} refused the connection (CONNACK {rc}: {text}): check {setting}")
    if "Connection refused" in text:
        return SetupError(f"cannot reach the {where} (connection refused): start it "
                          f"(sudo systemctl start mosquitto) or fix {setting}")
    if "Name or service not known" in text or "Temporary failure in name resolution" in text:
        return SetupError(f"{where}: unknown host name {host!r}: fix {setting}")
    if "timed out" in text.lower():
        return SetupError(f"{where} did not answer (timed out): check the network and firewall, or fix "
                          f"{setting}")
    if "certificate" in text.lower() or "SSL" in text:
        return SetupError(f"{where}: TLS failed ({text}): check ca_file/cert_file and the broker's TLS "
                          f"listener, or {setting}")
    return SetupError(f"{where}: {text}: check {setting}")


CAMERA_EXTRA = ("the camera needs OpenCV and numpy: pip install 'cardtable[camera]' "
                "(Pi: scripts/install-pi.sh --camera)")


def require_camera() -> None:
    """Raise a SetupError naming the `camera` extra when OpenCV or numpy is missing."""
    try:
        import cv2  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as exc:
        raise SetupError(f"{CAMERA_EXTRA} ({exc})") from None
