"""Checks of a table installation (serial hubs, GPIO, camera, broker, clock sync, disk): one line each.

`cardtable run` uses the device checks at start-up (a missing or forbidden device stops it with one line);
`cardtable doctor` runs them all and prints what is wrong and how to fix it. Every probe that touches the
machine is a parameter, so the tests run the checks against fakes.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from controller.config import Config
from controller.errors import SetupError, broker_error, device_error

MIN_FREE_BYTES = 500 * 1024 * 1024  # a day of journal and outbox is a few MB; 500 MB leaves weeks


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.name:<10} {self.detail}"


def open_device(path: str) -> None:
    """Open and close a device read-write without making it our controlling terminal."""
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    os.close(fd)


Opener = Callable[[str], None]


def hub_problems(cfg: Config, opener: Opener | None = None) -> Iterable[SetupError]:
    opener = opener or open_device
    for i, hub in enumerate(cfg.hubs):
        try:
            opener(hub.device)
        except OSError as exc:
            yield device_error(f"reader hub {hub.name}:", hub.device, exc, setting=f"hubs[{i}].device")


def gpio_chips(pattern: str = "/dev/gpiochip*") -> list[str]:
    return sorted(glob.glob(pattern))


def gpio_problems(cfg: Config, opener: Opener | None = None,
                  chips: Callable[[], list[str]] | None = None) -> Iterable[SetupError]:
    """The pins of the tap sensor and console go through /dev/gpiochip* (lgpio and native factories)."""
    if (cfg.tap is None and cfg.console is None) or cfg.gpio.pin_factory not in ("lgpio", "native"):
        return
    found = (chips or gpio_chips)()
    if not found:
        yield SetupError("GPIO: no /dev/gpiochip* on this machine: run on the Raspberry Pi, or set "
                         "[gpio] pin_factory = \"mock\" for a table without wires")
        return
    try:
        (opener or open_device)(found[0])
    except OSError as exc:
        yield device_error("GPIO", found[0], exc, setting="[gpio] pin_factory")


def check_devices(cfg: Config, opener: Opener | None = None,
                  chips: Callable[[], list[str]] | None = None) -> None:
    """Start-up check of `cardtable run`: the first missing or forbidden device as a SetupError."""
    for problem in [*hub_problems(cfg, opener), *gpio_problems(cfg, opener, chips)]:
        raise problem


def camera_problems(cfg: Config, opener: Opener | None = None) -> Iterable[str]:
    if cfg.camera is None:
        return
    try:
        import cv2  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        yield "[camera] is configured but OpenCV is not installed: pip install 'cardtable[camera]'"
    source = str(cfg.camera.get("source", "")) if isinstance(cfg.camera, dict) else ""
    if source.startswith("/dev/"):
        try:
            (opener or open_device)(source)
        except OSError as exc:
            yield str(device_error("camera", source, exc, setting="[camera] source"))
    elif source == "picamera":
        try:
            import picamera2  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            yield "[camera] source = \"picamera\" needs picamera2: sudo apt install python3-picamera2"
        for path in ("/dev/dma_heap", "/dev/media0"):
            if not os.access(path, os.R_OK | os.W_OK):
                yield f"camera: no read/write access to {path}: add the user to group video"


async def broker_problem(cfg: Config, timeout: float = 5.0,
                         setting: str = "[mqtt] in the config") -> SetupError | None:
    """Connect to the configured broker with the configured credentials and TLS; None when it answers."""
    import aiomqtt

    from controller.daemon.publisher import client_id, rc_value, read_credentials, tls_parameters

    m = cfg.mqtt
    creds = read_credentials(m.credentials_file) if m.credentials_file else None
    try:
        async with aiomqtt.Client(m.host, m.port, identifier=client_id("cardtable-check"), timeout=timeout,
                                  username=creds.username if creds else None,
                                  password=creds.password if creds else None, tls_params=tls_parameters(m)):
            return None
    except aiomqtt.MqttError as exc:
        return broker_error(m.host, m.port, exc, rc=rc_value(exc), setting=setting)
    except OSError as exc:
        return broker_error(m.host, m.port, exc, setting=setting)


def clock_problem(run: Callable[[list[str]], str] | None = None) -> str | None:
    """Alert times are wall-clock times on the floor: the Pi (no RTC) must be NTP-synchronised."""
    if Path("/run/systemd/timesync/synchronized").exists():
        return None
    try:
        out = (run or _run_text)(["timedatectl", "show", "-p", "NTPSynchronized", "--value"]).strip()
    except (OSError, subprocess.SubprocessError):
        return "cannot ask timedatectl whether the clock is synchronised (no systemd?)"
    if out == "yes":
        return None
    return "the system clock is not NTP-synchronised: sudo timedatectl set-ntp true (and check the network)"


def _run_text(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=5, check=False).stdout


def disk_problem(path: Path, free: Callable[[Path], int] | None = None,
                 minimum: int = MIN_FREE_BYTES) -> str | None:
    probe = path if path.exists() else next((p for p in path.parents if p.exists()), Path("/"))
    left = free(probe) if free else shutil.disk_usage(probe).free
    if left >= minimum:
        return None
    return (f"only {left // 2**20} MB free under {probe} (journal and outbox need room): "
            f"free some space or move state_dir")


def disk_detail(path: Path) -> str:
    probe = path if path.exists() else next((p for p in path.parents if p.exists()), Path("/"))
    return f"{shutil.disk_usage(probe).free // 2**20} MB free under {probe}"


def _broker_text(cfg: Config) -> str | None:
    problem = asyncio.run(broker_problem(cfg))
    return None if problem is None else str(problem)


def run_checks(cfg: Config, *, opener: Opener | None = None, chips: Callable[[], list[str]] | None = None,
               clock: Callable[[], str | None] = clock_problem,
               broker: Callable[[Config], str | None] | None = None,
               disk: Callable[[Path], str | None] = disk_problem) -> list[Check]:
    """Every check, in a fixed order; skipped ones (nothing configured) say so."""
    checks: list[Check] = []
    hubs = [str(p) for p in hub_problems(cfg, opener)]
    checks.append(Check("hubs", not hubs, "; ".join(hubs) if hubs else
                        (", ".join(h.device for h in cfg.hubs) or "none configured")))
    gpio = [str(p) for p in gpio_problems(cfg, opener, chips)]
    uses_pins = cfg.tap is not None or cfg.console is not None
    checks.append(Check("gpio", not gpio, "; ".join(gpio) if gpio else
                        (f"pin factory {cfg.gpio.pin_factory}" if uses_pins else "no pins configured")))
    cam = list(camera_problems(cfg, opener))
    checks.append(Check("camera", not cam, "; ".join(cam) if cam else
                        ("configured" if cfg.camera is not None else "none configured")))
    if cfg.mqtt.enabled:
        problem = (broker or _broker_text)(cfg)
        checks.append(Check("broker", problem is None,
                            problem or f"{cfg.mqtt.host}:{cfg.mqtt.port} accepted the connection"))
    else:
        checks.append(Check("broker", True, "MQTT disabled in the config"))
    problem = clock()
    checks.append(Check("clock", problem is None, problem or "NTP-synchronised"))
    problem = disk(cfg.state_dir)
    checks.append(Check("disk", problem is None, problem or disk_detail(cfg.state_dir)))
    return checks
