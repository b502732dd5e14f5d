"""Table events (interfaces.md §1) as frozen, keyword-only dataclasses, one class per `type`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Literal, TypeAlias

ActionName = Literal["fold", "check", "call", "bet", "raise", "allin"]
ACTIONS: tuple[str, ...] = ("fold", "check", "call", "bet", "raise", "allin")
DECLARATIONS: tuple[str, ...] = ("call", "bet", "raise")
CONSOLE_BUTTONS: tuple[str, ...] = ("misdeal", "floor", "deck_check", "deck_check_done", "clock")
# Contract v1.1 (interfaces.md §1a): the games and betting structures a `level` can name. `step_spread`
# is our compatible extension for 002's step-spread limit (docs/interfaces.md §1a).
GAMES: tuple[str, ...] = ("holdem", "stud7")
LIMITS: tuple[str, ...] = ("no", "pot", "fixed", "spread", "split", "step_spread")


@dataclass(frozen=True, kw_only=True, slots=True)
class BaseEvent:
    """Common fields: `t` seconds (float, increasing) and the `source` that reported it."""

    TYPE: ClassVar[str] = ""
    t: float
    # Extension to the contract: which adapter produced the event (rfid, tap, console, camera, sim, …).
    # None when the log did not say; never influences the rules.
    source: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SeatEvent(BaseEvent):
    TYPE: ClassVar[str] = "seat"
    seat: int
    player: str | None
    stack: int


@dataclass(frozen=True, kw_only=True, slots=True)
class DeckEvent(BaseEvent):
    TYPE: ClassVar[str] = "deck"
    id: str
    cards: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True, slots=True)
class LevelEvent(BaseEvent):
    TYPE: ClassVar[str] = "level"
    sb: int
    bb: int
    ante: int = 0
    chip: int = 1
    # Extensions (docs/interfaces.md "Forced bets and units"): who posts the ante ("each" seat, the big
    # blind "bb", the "button"), and how many log units make one unit of the hand's own money (a PHH
    # import of a $0.10/$0.25 game plays in cents: scale 100); exports divide by it.
    ante_mode: str = "each"
    scale: int = 1
    # Contract v1.1 (§1a): the game and the betting structure; 0 means "not given" for the amounts. None:
    # the level does not name them, so the table's game applies (config `[table] game`, else hold'em, and
    # no limit; controller/core/levels.py) — never read as an explicit "holdem".
    game: str | None = None
    limit: str | None = None
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    ante_chips: bool = False  # the chip readers report antes: chips before the deal include them (antes.py)


@dataclass(frozen=True, kw_only=True, slots=True)
class HandStart(BaseEvent):
    TYPE: ClassVar[str] = "hand_start"
    button: int | None = None
    game: str | None = None  # contract v1.1 (§1a): this hand's game (mixed rotations); None: the level's
    # Extensions (docs/interfaces.md "Forced bets and units"): this hand's forced bets beyond the level.
    straddles: tuple[int, ...] | None = None  # live straddles by the seats after the big blind, in order
    posts: Mapping[int, int] | None = None  # seat → live post out of position (a player coming back)
    dead: Mapping[int, int] | None = None  # seat → dead chips (a missed small blind), dead money
    dead_sb: bool | None = None  # no small blind: the first player after the button posts the big blind


@dataclass(frozen=True, kw_only=True, slots=True)
class CardSeen(BaseEvent):
    """A card arrives in a zone (`card` event). Exactly one of `card` / `uid` is set."""

    TYPE: ClassVar[str] = "card"
    zone: str
    card: str | None = None
    uid: str | None = None
    unread: bool | None = None  # extension: neither card nor uid, a card whose face nobody read


@dataclass(frozen=True, kw_only=True, slots=True)
class CardGone(BaseEvent):
    TYPE: ClassVar[str] = "card_gone"
    zone: str
    card: str | None = None
    uid: str | None = None
    unread: bool | None = None  # extension: see CardSeen


@dataclass(frozen=True, kw_only=True, slots=True)
class Exposed(BaseEvent):
    """A card seen face up in a zone; neither `card` nor `uid` when the camera could not read the face
    (the engine then takes the card the readers placed in that zone most recently)."""

    TYPE: ClassVar[str] = "exposed"
    zone: str
    card: str | None = None
    uid: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Knock(BaseEvent):
    TYPE: ClassVar[str] = "knock"


@dataclass(frozen=True, kw_only=True, slots=True)
class ActionEvent(BaseEvent):
    """A betting action; `amount` is the seat's total committed this round after the action."""

    TYPE: ClassVar[str] = "action"
    seat: int
    action: ActionName
    amount: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class ChipsEvent(BaseEvent):
    """Chips in a seat's bet zone (total this round), optionally with a verbal declaration."""

    TYPE: ClassVar[str] = "chips"
    seat: int
    amount: int
    declared: Literal["call", "bet", "raise"] | None = None
    declared_amount: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class PresentEvent(BaseEvent):
    TYPE: ClassVar[str] = "present"
    seat: int
    present: bool


RULINGS: tuple[str, ...] = ("accept", "reverse")


@dataclass(frozen=True, kw_only=True, slots=True)
class ConsoleEvent(BaseEvent):
    """A dealer console button; extension: `ruling` is the floor's decision on an open irregularity
    (`accept` what the table did, or `reverse` it: the remedy applies), with an optional note and the
    id of the alert it answers (docs/interfaces.md, "Floor rulings")."""

    TYPE: ClassVar[str] = "console"
    button: Literal["misdeal", "floor", "deck_check", "deck_check_done", "clock", "ruling"]
    ruling: Literal["accept", "reverse"] | None = None
    note: str | None = None
    id: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardCountEvent(BaseEvent):
    """Extension: the overhead camera counts `count` cards face up in `zone` (debounced over 2 frames)."""

    TYPE: ClassVar[str] = "board_count"
    zone: str
    count: int


@dataclass(frozen=True, kw_only=True, slots=True)
class DealerEvent(BaseEvent):
    """Extension: the dealer now at the table (a dealer push: badge or console entry). It changes no rule;
    the public state names the dealer, so the floor books each hand and alert to who dealt it."""

    TYPE: ClassVar[str] = "dealer"
    dealer: str


@dataclass(frozen=True, kw_only=True, slots=True)
class SessionEnd(BaseEvent):
    """Extension: the session is over (simulate's last hand played, a table closed for the night). The
    last hand is settled now, as the next `hand_start` would; the journal records it so that a replay
    raises the same alerts and summary."""

    TYPE: ClassVar[str] = "session_end"


@dataclass(frozen=True, kw_only=True, slots=True)
class SessionStart(BaseEvent):
    """Extension: the first event of a daemon session's journal. Its `id` goes into every alert id the
    core raises after it (`<table>-<id>-h<hand>-<n>`), so a restarted daemon that begins a new session
    (hand numbers start again at 1) never reuses an alert id of an earlier session, and a replay of the
    journal gives the same ids."""

    TYPE: ClassVar[str] = "session"
    id: str


Event: TypeAlias = (
    SeatEvent
    | DeckEvent
    | LevelEvent
    | HandStart
    | CardSeen
    | CardGone
    | Exposed
    | Knock
    | ActionEvent
    | ChipsEvent
    | PresentEvent
    | ConsoleEvent
    | BoardCountEvent
    | SessionEnd
    | SessionStart
    | DealerEvent
)

EVENT_TYPES: dict[str, type[BaseEvent]] = {
    cls.TYPE: cls
    for cls in (
        SeatEvent,
        DeckEvent,
        LevelEvent,
        HandStart,
        CardSeen,
        CardGone,
        Exposed,
        Knock,
        ActionEvent,
        ChipsEvent,
        PresentEvent,
        ConsoleEvent,
        BoardCountEvent,
        SessionEnd,
        SessionStart,
        DealerEvent,
    )
}


def _direct_init(cls: type[BaseEvent]) -> None:
    """Give a frozen event class an `__init__` with the dataclass's own signature that fills the slots
    through their descriptors. The dataclass's goes through `object.__setattr__` for every field (what a
    frozen class must do), which made building an event cost more than reading its JSON (import-phh and
    replay build tens of thousands; tests/core/test_events_init.py checks the two agree). A class with a
    default factory keeps the dataclass's."""
    params: list[str] = []
    body: list[str] = []
    env: dict[str, Any] = {}
    for f in fields(cls):
        if f.default_factory is not MISSING:
            return
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's own descriptor
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, *, {', '.join(params)}) -> None:\n" + "\n".join(body), env)
    init: Callable[..., None] = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = dict(cls.__init__.__annotations__)
    DATACLASS_INITS[cls] = cls.__init__  # kept for the test that compares the two
    cls.__init__ = init  # type: ignore[method-assign]


DATACLASS_INITS: dict[type, Callable[..., None]] = {}


for _cls in EVENT_TYPES.values():
    _direct_init(_cls)
