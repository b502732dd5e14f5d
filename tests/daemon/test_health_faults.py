"""Device faults become one HEALTH alert per condition, and clear when the condition ends."""

from __future__ import annotations

from types import SimpleNamespace

from controller.core.alerts import Alert
from controller.daemon.health import Health


def test_stuck_gpio_line_raises_once_and_clears() -> None:
    got: list[Alert] = []
    health = Health(table="t1", raise_alert=got.append, clock=lambda: 5.0, hand=lambda: 3)
    stuck = SimpleNamespace(source="tap", line=17, active=True)
    health.pin_fault(stuck)
    health.pin_fault(stuck)  # still stuck: no second alert
    assert [(a.code, a.hand, a.message) for a in got] == [("HEALTH", 3, "tap: GPIO line 17 stuck active")]
    assert "gpio:tap:17" in health.active
    health.pin_fault(SimpleNamespace(source="tap", line=17, active=False))
    assert health.active == {}
    health.pin_fault(stuck)  # stuck again later: a new alert
    assert len(got) == 2


def test_set_is_problem_while_bad_and_resolved_after() -> None:
    got: list[Alert] = []
    health = Health(table="t1", raise_alert=got.append, clock=lambda: 0.0, hand=lambda: 0)
    health.set("reader:hub0:2", True, "reader hub hub0: reader 2 stopped answering")
    health.set("reader:hub0:2", False, "")
    assert [a.message for a in got] == ["reader hub hub0: reader 2 stopped answering"] and not health.active
