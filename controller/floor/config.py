"""Floor screen configuration: TOML validated once at start-up into frozen settings (defaults live here)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from controller.floor.errors import FloorConfigError

Role = Literal["floor", "wall", "supervisor"]
Lang = Literal["en", "de"]
_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")


class _Strict(BaseModel):
    # Unknown keys are fatal and settings never change after start-up.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)  # TOML has nan and inf


class BrokerConfig(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=1883, ge=1, le=65535)
    username: str | None = None
    password: str | None = None
    password_file: Path | None = None
    prefix: str = "cardtable"
    client_id: str = "cardtable-floor"
    # The table config's [mqtt] names (keepalive_s, backoff_min_s, backoff_max_s) are accepted here too, so
    # one vocabulary serves both files; the floor's older names stay valid.
    keepalive: int = Field(default=30, ge=5, le=3600,
                           validation_alias=AliasChoices("keepalive_s", "keepalive"))
    tls: bool = False
    ca_file: Path | None = None
    # Reconnect backoff: first wait, cap (seconds); the wait doubles with jitter up to the cap.
    backoff_initial: float = Field(default=0.5, gt=0, le=60,
                                   validation_alias=AliasChoices("backoff_min_s", "backoff_initial"))
    backoff_max: float = Field(default=10.0, gt=0, le=600,
                               validation_alias=AliasChoices("backoff_max_s", "backoff_max"))
    # A chain of rooms (docs/room.md): topics `<prefix>/<room>/<table>/…`, each table filed as
    # `<room>/<table>`. For a central floor that reads every room through the central broker.
    rooms: bool = False
    # MQTT 5 shared subscription `$share/<group>/…`: floor processes with one group (and one database) split
    # the messages between them. Sequence gaps are then not tracked here (each process sees part of every
    # table's stream); the room floors track them. Each process needs its own client_id.
    share_group: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")

    @field_validator("prefix")
    @classmethod
    def _prefix_ok(cls, v: str) -> str:
        if not v or any(c in v for c in "+#") or v.startswith("/") or v.endswith("/"):
            raise ValueError("must be a topic prefix without wildcards or leading/trailing '/'")
        return v

    @model_validator(mode="after")
    def _one_password(self) -> BrokerConfig:
        if self.password is not None and self.password_file is not None:
            raise ValueError("give either password or password_file, not both")
        return self

    def secret(self) -> str | None:
        """The broker password, read from password_file when that is configured."""
        if self.password_file is None:
            return self.password
        try:
            return self.password_file.read_text(encoding="utf-8").strip()
        except OSError as exc:
            problem = f"broker.password_file: {exc.strerror}"
            raise FloorConfigError(str(self.password_file), [problem]) from exc


class StoreConfig(_Strict):
    sqlite: Path = Path("floor.sqlite3")
    dsn: str | None = None  # PostgreSQL connection string; when set, PostgreSQL is used instead of SQLite
    schema_name: str | None = Field(default=None, alias="schema")

    @field_validator("schema_name")
    @classmethod
    def _schema_ok(cls, v: str | None) -> str | None:
        if v is not None and not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", v):
            raise ValueError("must be a lower-case SQL identifier")
        return v


class WebConfig(_Strict):
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)  # 0 picks a free port (tests)
    secure_cookies: bool = False  # set true behind HTTPS so the session cookie is never sent in clear
    session_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    feed_size: int = Field(default=200, ge=10, le=5000)  # alerts a fresh page starts with
    # A still-open misdeal beeps again after this many seconds (and every as many after); 0 = never.
    misdeal_reminder_s: float = Field(default=60.0, ge=0, le=3600)
    # Wall display without a password: `/?wall=1` from these networks signs in as `wall_user` (role wall).
    wall_from: list[str] = Field(default_factory=list)
    wall_user: str = "wall"

    @field_validator("wall_from")
    @classmethod
    def _networks_ok(cls, v: list[str]) -> list[str]:
        import ipaddress

        for net in v:
            try:
                ipaddress.ip_network(net, strict=False)
            except ValueError:
                raise ValueError(f"{net!r} is not an IP network (e.g. 10.0.0.0/24)") from None
        return v


class UserConfig(_Strict):
    hash: str
    role: Role = "floor"
    lang: Lang = "en"  # page language for this user (alerts, remedies, rule summaries, page text)

    @field_validator("hash")
    @classmethod
    def _hash_ok(cls, v: str) -> str:
        from controller.floor.auth import parse_hash  # local: auth imports nothing from here

        parse_hash(v)
        return v


class FloorConfig(_Strict):
    # Accept the example users of config/floor.example.toml (a demo on one's own machine), with a warning.
    insecure_demo: bool = False
    broker: BrokerConfig = BrokerConfig()
    store: StoreConfig = StoreConfig()
    web: WebConfig = WebConfig()
    users: dict[str, UserConfig] = Field(default_factory=dict)
    dealers: dict[str, str] = Field(default_factory=dict)  # table id → dealer id (state `dealer` wins)
    # Shifts for the dealer statistics: name → "HH:MM-HH:MM" in the floor server's local time.
    shifts: dict[str, str] = Field(default_factory=lambda: {"early": "06:00-14:00", "late": "14:00-22:00",
                                                             "night": "22:00-06:00"})

    @field_validator("shifts")
    @classmethod
    def _shifts_ok(cls, v: dict[str, str]) -> dict[str, str]:
        from controller.floor.dealers import parse_shifts  # local: dealers imports nothing from here

        parse_shifts(v)
        return v

    @model_validator(mode="after")
    def _wall_user_ok(self) -> FloorConfig:
        if self.web.wall_from:
            u = self.users.get(self.web.wall_user)
            if u is None or u.role != "wall":
                raise ValueError(f"web.wall_user: {self.web.wall_user!r} must be a user with role 'wall' "
                                 "when web.wall_from is set")
        return self

    @field_validator("users")
    @classmethod
    def _users_ok(cls, v: dict[str, UserConfig]) -> dict[str, UserConfig]:
        if not v:
            raise ValueError("at least one user is required "
                             "(create a hash with `cardtable floor hash-password`)")
        bad = [name for name in v if not _NAME.match(name)]
        if bad:
            raise ValueError(f"bad user name(s): {', '.join(bad)} (letters, digits, _ . @ - only)")
        return v


def _problems(exc: ValidationError) -> list[str]:
    out = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        out.append(f"{where}: {msg}")
    return out


def parse_config(data: dict[str, Any], source: str = "<config>") -> FloorConfig:
    """Validate a decoded TOML document; every problem is reported at once with its path."""
    try:
        return FloorConfig.model_validate(data)
    except ValidationError as exc:
        raise FloorConfigError(source, _problems(exc)) from None


# The passwords of the example users in config/floor.example.toml: known to everyone who read the file.
EXAMPLE_PASSWORDS = ("change-me-floor", "change-me-wall")


def example_users(cfg: FloorConfig) -> list[str]:
    """Users whose password is one of the published example passwords (whatever the salt of the hash)."""
    from controller.floor.auth import verify_password  # local: auth imports nothing from here

    return sorted(name for name, user in cfg.users.items()
                  if any(verify_password(pw, user.hash) for pw in EXAMPLE_PASSWORDS))


def check_example_credentials(cfg: FloorConfig, source: str, *, insecure_demo: bool = False) -> list[str]:
    """Refuse example credentials unless the demo is explicitly allowed (`--insecure-demo` or
    `insecure_demo = true`); returns the users that have them (for the warning) when it is."""
    found = example_users(cfg)
    if found and not (insecure_demo or cfg.insecure_demo):
        hint = ("uses an example password from config/floor.example.toml; set a new one with `cardtable "
                "floor hash-password` (or start with --insecure-demo for a local demo)")
        raise FloorConfigError(source, [f"users.{name}: {hint}" for name in found])
    return found


def load_config(path: str | Path) -> FloorConfig:
    """Read and validate the floor config file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise FloorConfigError(str(p), [f"cannot read: {exc.strerror}"]) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise FloorConfigError(str(p), [f"not valid TOML: {exc}"]) from None
    return parse_config(data, str(p))
