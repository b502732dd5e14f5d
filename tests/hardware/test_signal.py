"""The dealer-side signal on gpiozero's MockFactory: patterns per severity, clearing on the dealer's
acknowledge button and on the floor's ruling (through the daemon's cmd/ack), short codes that never carry a
card, and the tournament default."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.config import parse_config
from controller.core.alerts import Alert
from controller.daemon.app import Daemon
from controller.hardware.signal import DealerSignal, short_code


def make_alert(code: str, severity: str, n: int = 1, cards: tuple[str, ...] = ()) -> Any:
    return Alert(id=f"t1-h3-{n}", t=1.0, table="t1", hand=3, code=code, severity=severity,  # type: ignore[arg-type]
                 street="flop", seat=2, cards=cards, message=f"{code} {' '.join(cards)}", remedy="", rule="")


@pytest.fixture
def sig() -> Any:
    shown: list[str] = []
    s = DealerSignal(pin_factory=MockFactory(), led=17, buzzer=18, ack=27, display=shown.append)
    s.texts = shown  # type: ignore[attr-defined]
    yield s
    s.close()


def rises(pin: Any, since: int = 0) -> int:
    states = [st.state for st in pin.states[since:]]
    return sum(1 for a, b in itertools.pairwise(states) if not a and b)


def test_misdeal_blinks_fast_and_beeps_three_times(sig: Any) -> None:
    sig(None, [make_alert("DEAL_WRONG_FIRST_SEAT", "misdeal")])
    time.sleep(1.0)
    assert sig.pattern == "misdeal" and sig.shown == "M-DWFS" and sig.texts == ["M-DWFS"]
    assert rises(sig.buzzer.pin) == 3
    assert rises(sig.led.pin) >= 3  # 0.15 s on / 0.15 s off


def test_warning_blinks_slowly_and_stays_silent(sig: Any) -> None:
    sig(None, [make_alert("KNOCK_MISSING", "warning")])
    time.sleep(0.5)
    assert sig.pattern == "warning" and sig.shown == "W-KM"
    assert rises(sig.buzzer.pin) == 0
    assert rises(sig.led.pin) == 1  # on for a full second: a slow blink, unlike the misdeal's


def test_error_is_steady_with_one_beep_and_the_worst_open_fault_wins(sig: Any) -> None:
    sig(None, [make_alert("KNOCK_MISSING", "warning", 1)])
    sig(None, [make_alert("TURN_PREMATURE", "error", 2)])
    time.sleep(0.5)
    assert sig.pattern == "error" and sig.led.pin.state is True and rises(sig.buzzer.pin) == 1
    sig.ruled("t1-h3-2")  # the floor ruled the error: back to the warning's slow blink
    assert sig.pattern == "warning" and sig.shown == "W-KM"


def test_dealer_acknowledge_button_clears_everything(sig: Any) -> None:
    sig(None, [make_alert("DECK_DUPLICATE", "misdeal", 1), make_alert("BURN_EXTRA", "error", 2)])
    sig.button.pin.drive_low()  # pressed (pull-up input)
    time.sleep(0.1)
    assert sig.pattern is None and sig.shown == "" and sig.led.pin.state is False and sig.texts[-1] == ""


def test_info_is_not_signalled_and_no_hole_card_is_ever_shown(sig: Any) -> None:
    sig(None, [make_alert("POT_AWARD", "info")])
    assert sig.pattern is None and sig.texts == []
    exposed = make_alert("HOLE_CARD_EXPOSED", "error", 2, cards=("As",))
    sig(None, [exposed])
    assert sig.shown == short_code(exposed) == "E-HCE"
    assert not any("As" in t for t in sig.texts)


def _daemon_config(tmp_path: Path, **signal: Any) -> Any:
    return parse_config({"state_dir": str(tmp_path / "state"), "gpio": {"pin_factory": "mock"},
                         "mqtt": {"enabled": False},
                         "signal": {"led": 17, "buzzer": 18, "ack": 27, **signal}})


def test_the_floor_ruling_reaches_the_signal_through_the_daemon(tmp_path: Path) -> None:
    daemon = Daemon(_daemon_config(tmp_path), new_session=True, publish=False)
    assert daemon.signal is not None and daemon.signal in daemon.observers
    misdeal = make_alert("DEAL_OUT_OF_ORDER", "misdeal")
    daemon.signal(None, [misdeal])
    assert daemon.signal.pattern == "misdeal"
    daemon.on_command("ack", json.dumps({"id": misdeal.id, "by": "anna", "ruling": "redealt"}).encode())
    assert daemon.signal.pattern is None and daemon.signal.led.pin.state is False
    daemon.signal.close()


def test_a_tournament_table_has_no_signal_unless_the_house_allows_it(tmp_path: Path) -> None:
    assert Daemon(_daemon_config(tmp_path / "a", tournament=True), publish=False).signal is None
    allowed = Daemon(_daemon_config(tmp_path / "b", tournament=True, in_tournament=True), publish=False)
    assert allowed.signal is not None
    allowed.signal.close()


def test_signal_pins_must_differ(tmp_path: Path) -> None:
    from controller.config import ConfigError

    with pytest.raises(ConfigError, match="different GPIO pins"):
        _daemon_config(tmp_path, buzzer=17)
