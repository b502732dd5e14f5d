"""Suite-wide fixtures: the root logger restored after each test, a broker with passwords, the slow list."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.broker import MOSQUITTO, Broker


@pytest.fixture(autouse=True)
def _restore_root_logger() -> Iterator[None]:
    """`cardtable` configures the root logger (controller.logsetup.setup); put it back after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        if h not in handlers:
            root.removeHandler(h)
    for h in handlers:
        if h not in root.handlers:
            root.addHandler(h)
    root.setLevel(level)


# The tests that take longest (20–110 s each on the shared 2-core machine). `./scripts/test` leaves them out
# (`-m "not slow"`) so the everyday run stays within about three minutes; CI runs them in a second step
# (`.ci/run`: `./scripts/test -m slow`), in the same bounded sizes (CARDTABLE_FULL=1 is the long mode).
# Kept here, by node id prefix, so that the owners' test files need no edit.
SLOW = (
    # Moved out of the everyday run to keep it under 3 minutes (short forms: tests/sim/test_table.py's
    # same-seed test in process; the single-frame and hole-pair tests of tests/vision/test_detect.py; the
    # one-line errors of the other CLIs in tests/daemon/test_edges_inputs.py).
    "tests/daemon/test_simulate.py::test_same_seed_same_result",
    "tests/vision/test_detect.py::test_square_hole_pairs_are_split_the_right_way_round",
    "tests/vision/test_calibrate.py::test_cli_bad_input_is_one_line",
    "tests/vision/test_accuracy.py::",  # renders 60 frames at 1296×972 before its first assertion
    "tests/vision/test_virtual.py::test_simulate_with_camera_runs_the_vision_path",
    # The tilted light table calibrated with an empty-table reference (~20 s to render and calibrate; the
    # felt-model video of the same test stays in the everyday run).
    "tests/vision/test_video.py::test_recorded_hand_gives_the_rfid_board_counts_and_one_exposure[reference]",
    "tests/vision/test_calibrate.py::test_cli_calibrates_then_detects_with_zones_and_codes",
    "tests/floor/test_simulate_e2e.py::",  # simulate → broker → floor → Chromium, both stores
    "tests/conformance/test_e2e_conformance.py::test_random_hands_end_to_end_match_pokerkit",
    "tests/daemon/test_mustshow.py::test_sigkill_at_random_points_resumes_and_loses_nothing",
    "tests/daemon/test_mustshow.py::test_200_hands_every_alert_once_in_order_equal_to_replay",
    "tests/daemon/test_mustshow.py::test_broker_outage_loses_no_alert_and_keeps_order",
    "tests/sim/test_pokerkit_crosscheck.py::test_pokerkit_accepts_every_action_and_pays_the_same_stacks[showdown-10]",
    "tests/sim/test_pokerkit_crosscheck.py::test_pokerkit_accepts_every_action_and_pays_the_same_stacks[showdown-9]",
    # Whole-room runs: a floor process, a broker and many tables each (issues #12, #17, #19); 20–70 s each.
    "tests/room/test_room.py::",
    "tests/room/test_stall.py::",
    "tests/room/test_pages.py::",
    "tests/room/test_chain.py::test_chain_cut_link",  # three brokers, four floor processes (short form stays)
    "tests/floor/test_ui_wall_soak.py::",
    "tests/floor/test_edges_chaos.py::",
    # Long differential and browser runs, 6–20 s each (the short forms of each stay in the everyday run).
    "tests/conformance/test_record_conformance.py::test_random_hands_settle_exactly_as_pokerkit",
    "tests/floor/test_ui_e2e.py::test_replay_phone_and_german",
    "tests/phh/test_dev_sample_cli.py::test_dev_sample_settles_as_recorded_through_the_cli[pluribus_dev.phhs]",
    # 49 raw HandHQ hands with every source field (the transcribed 72 of the same sites stay everyday).
    "tests/phh/test_real_more_cli.py::test_real_hands_settle_through_the_cli[handhq_raw.phhs]",
    "tests/core/test_history.py::test_written_hands_replay_in_pokerkit_to_the_same_stacks",
    "tests/bridge/test_link.py::test_soak_every_event_exactly_once_in_order_and_fast_relink",
    # Issue 13's must-show: simulate --game stud|mixed --hands 1000 (the 30-hand form stays everyday).
    "tests/sim/test_stud_follow.py::test_simulate_1000_hands",
    # 10,000 stud hands against PokerKit (CARDTABLE_FULL=1); the 200-hand form runs every day.
    "tests/conformance/test_stud_differential.py::test_random_stud_hands_match_pokerkit_long",
    "tests/core/test_limits_kit.py::test_limit_holdem_matches_pokerkit_long",  # 1,000 hands per structure
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def password_broker(tmp_path: Path) -> Iterator[Broker]:
    """A private mosquitto that accepts only user t1 with password `right`."""
    if not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto not installed")
    (tmp_path / "pw-broker").mkdir()
    broker = Broker(tmp_path / "pw-broker", passwords={"t1": "right"})
    broker.start()
    yield broker
    broker.stop()
