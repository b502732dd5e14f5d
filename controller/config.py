"""The daemon's configuration: a TOML file validated once at start-up into frozen pydantic models.

Defaults live here and nowhere else; unknown keys are fatal; every error is reported with its path at once
(ConfigError carries them as a list and renders one line per error).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from controller.core.cards import FIXED_ZONES, CardError, normalise_uid, parse_card
from controller.core.levels import AMOUNTS, TableGame
from controller.core.profiles import PROFILES, Profile, with_overrides
from controller.errors import UsageError

_ZONE_RE = re.compile(r"^(seat([1-9][0-9]?)|" + "|".join(FIXED_ZONES) + r")$")
_TOPIC_SAFE = re.compile(r"^[A-Za-z0-9_.-]+$")


class ConfigError(UsageError):
    """The config file is unreadable or invalid; `errors` holds one '<path>: <problem>' line each."""

    def __init__(self, path: str, errors: list[str]) -> None:
        self.path = path
        self.errors = errors
        super().__init__("\n".join(f"{path}: {e}" for e in errors))


class _Model(BaseModel):
    # Unknown keys are fatal (a typo must not silently fall back to a default); frozen after validation.
    # TOML allows nan and inf; no setting means either (a knock pause of inf seconds is a typo).
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class TableConfig(_Model):
    id: Annotated[str, Field(min_length=1, max_length=32)] = "t1"
    seats: Annotated[int, Field(ge=2, le=11)] = 10
    profile: str = "cuca"
    # Fine-tuning of the profile's timings (seconds); anything left out keeps the profile's value.
    knock_pause_s: Annotated[float, Field(gt=0)] | None = None
    action_time_s: Annotated[float, Field(gt=0)] | None = None
    all_in_time_s: Annotated[float, Field(gt=0)] | None = None
    clock_s: Annotated[float, Field(gt=0)] | None = None
    # The game the table deals when a `level` event names none (docs/interfaces.md §1a; a level or a
    # hand_start that names a game beats it) and, for such levels, the betting structure and amounts they
    # leave out. Amounts left out here must come from the levels. Order matters: each amount is checked
    # against the fields above it (controller/core/levels.py, the log reader's check).
    game: Literal["holdem", "stud7"] = "holdem"
    limit: Literal["no", "pot", "fixed", "spread", "split", "step_spread"] | None = None
    small_bet: Annotated[int, Field(ge=1)] | None = None
    big_bet: Annotated[int, Field(ge=1)] | None = None
    bring_in: Annotated[int, Field(ge=1)] | None = None

    @field_validator("small_bet", "big_bet", "bring_in")
    @classmethod
    def _structure(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v is None:
            return v
        known = {k: info.data.get(k) for k in ("game", "limit", *AMOUNTS)} | {info.field_name: v}
        problem = _table_game(known).problem()
        if problem is not None and problem[0] == info.field_name:
            raise ValueError(problem[1])
        return v

    def table_game(self) -> TableGame:
        """What the rules core takes for a level that names no game (Engine(game=…))."""
        return _table_game(self.model_dump(include={"game", "limit", *AMOUNTS}))

    def rule_profile(self) -> Profile:
        """The profile with this table's timing overrides (what the daemon and `replay --config` use)."""
        overrides = {k: getattr(self, k) for k in ("knock_pause_s", "action_time_s", "all_in_time_s",
                                                    "clock_s") if getattr(self, k) is not None}
        return with_overrides(PROFILES[self.profile], **overrides)

    @field_validator("id")
    @classmethod
    def _id_topic_safe(cls, v: str) -> str:
        if not _TOPIC_SAFE.fullmatch(v):
            raise ValueError("may contain only letters, digits, '_', '-' and '.' (it is an MQTT topic level)")
        return v

    @field_validator("profile")
    @classmethod
    def _known_profile(cls, v: str) -> str:
        if v not in PROFILES:
            raise ValueError(f"unknown profile {v!r} (one of {', '.join(sorted(PROFILES))})")
        return v


def _table_game(fields: Mapping[str, Any]) -> TableGame:
    return TableGame(game=fields.get("game") or "holdem", limit=fields.get("limit"),
                     **{k: fields.get(k) or 0 for k in AMOUNTS})


class HubConfig(_Model):
    """One RFID reader hub on a serial port; `readers` maps the hub's reader number to a table zone."""

    name: Annotated[str, Field(min_length=1)] = "hub0"
    device: Annotated[str, Field(min_length=1)]
    baudrate: Annotated[int, Field(gt=0, le=4_000_000)] = 115200
    readers: dict[int, str]
    debounce_s: Annotated[float, Field(ge=0)] = 0.15

    @field_validator("readers")
    @classmethod
    def _zones(cls, v: dict[int, str]) -> dict[int, str]:
        bad = [z for z in v.values() if not _ZONE_RE.fullmatch(z)]
        if bad:
            raise ValueError(f"unknown zone(s) {', '.join(map(repr, bad))} (seatN, board, burn, muck, deck)")
        return v


class TapConfig(_Model):
    """The dealer's tap sensor (knock) on one GPIO pin."""

    pin: Annotated[int, Field(ge=0, le=53)] = 17
    active_high: bool = False
    bounce_s: Annotated[float, Field(ge=0)] = 0.02
    min_gap_s: Annotated[float, Field(ge=0)] = 0.12
    stuck_after_s: Annotated[float, Field(gt=0)] = 2.0


class ConsoleConfig(_Model):
    """Dealer console buttons: GPIO pin per button (BCM numbering)."""

    active_high: bool = False
    bounce_s: Annotated[float, Field(ge=0)] = 0.02
    min_gap_s: Annotated[float, Field(ge=0)] = 0.5
    stuck_after_s: Annotated[float, Field(gt=0)] = 5.0
    new_hand: Annotated[int, Field(ge=0, le=53)] = 5
    misdeal: Annotated[int, Field(ge=0, le=53)] = 6
    floor: Annotated[int, Field(ge=0, le=53)] = 13
    deck_check: Annotated[int, Field(ge=0, le=53)] = 19
    deck_check_done: Annotated[int, Field(ge=0, le=53)] = 20
    clock: Annotated[int, Field(ge=0, le=53)] = 26

    @model_validator(mode="after")
    def _distinct_pins(self) -> ConsoleConfig:
        pins = [self.new_hand, self.misdeal, self.floor, self.deck_check, self.deck_check_done, self.clock]
        if len(set(pins)) != len(pins):
            raise ValueError("two console buttons share a GPIO pin")
        return self


class SignalConfig(_Model):
    """The dealer-side LED and buzzer (controller/hardware/signal.py): GPIO pins (BCM) and what they show."""

    led: Annotated[int, Field(ge=0, le=53)]
    buzzer: Annotated[int, Field(ge=0, le=53)] | None = None
    ack: Annotated[int, Field(ge=0, le=53)] | None = None  # the dealer's acknowledge button
    severities: list[Literal["misdeal", "error", "dead_hand", "warning"]] = ["misdeal", "error", "dead_hand",
                                                                             "warning"]
    sound: bool = True
    # A tournament table keeps the signal off unless the house allows it (in_tournament = true).
    tournament: bool = False
    in_tournament: bool = False

    @property
    def active(self) -> bool:
        return not self.tournament or self.in_tournament

    @model_validator(mode="after")
    def _distinct_signal_pins(self) -> SignalConfig:
        pins = [p for p in (self.led, self.buzzer, self.ack) if p is not None]
        if len(set(pins)) != len(pins):
            raise ValueError("led, buzzer and ack must use different GPIO pins")
        return self


class GpioConfig(_Model):
    # gpiozero pin factory: "lgpio" on Raspberry Pi OS bookworm, "mock" for a table without wires.
    pin_factory: Literal["lgpio", "rpigpio", "pigpio", "native", "mock"] = "lgpio"


class MqttConfig(_Model):
    enabled: bool = True
    host: Annotated[str, Field(min_length=1)] = "localhost"
    port: Annotated[int, Field(ge=1, le=65535)] = 1883
    prefix: Annotated[str, Field(min_length=1)] = "cardtable"
    client_id: str | None = None
    keepalive_s: Annotated[int, Field(ge=5, le=3600)] = 30
    # A file with one line `username:password` (kept out of the config so the config can be world-readable).
    credentials_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    backoff_min_s: Annotated[float, Field(gt=0)] = 0.5
    backoff_max_s: Annotated[float, Field(gt=0)] = 30.0
    publish_timeout_s: Annotated[float, Field(gt=0)] = 10.0
    # The retained QoS 0 `state` goes out at most this often (latest wins; 0: after every event).
    state_interval_s: Annotated[float, Field(ge=0, le=60)] = 1.0

    @model_validator(mode="after")
    def _consistent(self) -> MqttConfig:
        if self.backoff_max_s < self.backoff_min_s:
            raise ValueError("backoff_max_s must be ≥ backoff_min_s")
        if (self.cert_file is None) != (self.key_file is None):
            raise ValueError("cert_file and key_file go together")
        return self

    @field_validator("prefix")
    @classmethod
    def _prefix(cls, v: str) -> str:
        if any(c in v for c in "#+") or v.startswith("/") or v.endswith("/"):
            raise ValueError("must not contain '#' or '+' nor start or end with '/'")
        return v


class JournalConfig(_Model):
    # 0: fsync after every event; otherwise fsync at most this often (power loss loses ≤ this window).
    fsync_interval_s: Annotated[float, Field(ge=0, le=60)] = 0.2


class OutboxConfig(_Model):
    # Acknowledged rows are kept this long (so a replay after a crash does not send them again).
    retention_h: Annotated[float, Field(gt=0)] = 24.0


class HealthConfig(_Model):
    interval_s: Annotated[float, Field(gt=0)] = 10.0


class Config(_Model):
    table: TableConfig = TableConfig()
    state_dir: Path = Path("/var/lib/cardtable")
    decks: list[Path] = []
    hubs: list[HubConfig] = []
    tap: TapConfig | None = None
    console: ConsoleConfig | None = None
    signal: SignalConfig | None = None  # dealer-side LED/buzzer; absent: none
    gpio: GpioConfig = GpioConfig()
    # The overhead camera's section belongs to the camera subsystem (controller/vision/config.py), which
    # validates it; see _camera_errors. Absent: no camera task.
    camera: dict[str, Any] | None = None
    mqtt: MqttConfig = MqttConfig()
    journal: JournalConfig = JournalConfig()
    outbox: OutboxConfig = OutboxConfig()
    health: HealthConfig = HealthConfig()

    @model_validator(mode="after")
    def _zones_fit_table(self) -> Config:
        for hub in self.hubs:
            for zone in hub.readers.values():
                if zone.startswith("seat") and int(zone[4:]) > self.table.seats:
                    raise ValueError(f"hub {hub.name!r}: zone {zone} beyond table.seats = {self.table.seats}")
        names = [h.name for h in self.hubs]
        if len(set(names)) != len(names):
            raise ValueError("two hubs share a name")
        return self


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if part == "[key]":  # pydantic's marker for a bad dict key
            out += " (key)"
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _messages(exc: ValidationError) -> list[str]:
    lines = []
    for err in exc.errors(include_url=False):
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        lines.append(f"{_loc(err['loc'])}: {msg}")
    return lines


def _camera_errors(section: Any) -> list[str]:
    """The camera subsystem's own validation of `[camera]`, merged into our list of errors."""
    if not isinstance(section, Mapping):
        return []
    try:
        from controller.vision.config import CameraConfig
    except ImportError as exc:
        from controller.errors import CAMERA_EXTRA
        return [f"camera: {CAMERA_EXTRA} ({exc})"]
    try:
        CameraConfig.from_mapping(section)
    except UsageError as exc:
        return str(exc).split("; ")
    except Exception as exc:  # the camera's validator must not turn a bad value into a traceback
        return [f"camera: invalid section ({type(exc).__name__}: {str(exc)[:200]})"]
    return []


def parse_config(data: Mapping[str, Any], *, source: str = "<config>") -> Config:
    errors = _camera_errors(data.get("camera"))
    try:
        cfg = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(source, _messages(exc) + errors) from None
    if errors:
        raise ConfigError(source, errors)
    return cfg


def load_config(path: str | Path) -> Config:
    """Read and validate a TOML config; raise ConfigError listing every problem."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(str(path), [f"cannot read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), [f"not UTF-8 text ({exc.reason})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), [f"not valid TOML: {exc}"]) from None
    return parse_config(data, source=str(path))


class DeckFileError(UsageError):
    """A deck file is unreadable or malformed."""


def load_deck(path: Path) -> tuple[str, dict[str, str]]:
    """Read a deck file: JSON {"id": "...", "cards": {uid: card}} with 52 distinct cards."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DeckFileError(f"deck file {path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DeckFileError(f"deck file {path}: not valid JSON ({exc})") from None
    if not (isinstance(raw, dict) and isinstance(raw.get("id"), str) and isinstance(raw.get("cards"), dict)):
        raise DeckFileError(f'deck file {path}: expected {{"id": "…", "cards": {{"<uid>": "<card>", …}}}}')
    try:
        cards = {normalise_uid(u): parse_card(c) for u, c in raw["cards"].items()}
    except CardError as exc:
        raise DeckFileError(f"deck file {path}: {exc}") from None
    if len(cards) != 52 or len(set(cards.values())) != 52:
        raise DeckFileError(f"deck file {path}: needs 52 tags for 52 distinct cards, has "
                            f"{len(cards)} tags for {len(set(cards.values()))} cards")
    return raw["id"], cards
