"""Fuzz config validation: `cardtable run --check` on mutated configs exits 0 or 2 with one-line errors
naming the key, never a traceback, within a second; and a config it calls OK is one the daemon starts
with (issue #12: 20 of 787 mutated configs raised in `[camera]`, and --check said OK to configs `run`
then rejected)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from controller.commands import run as run_cmd
from controller.config import load_config
from controller.daemon.app import Daemon
from tests.fuzz.common import answered_in_time, fuzz_settings

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["nan", "inf", "-inf", "+inf", "1e400", "-1", "0", "1", "99999999999999999999",
           "-99999999999999999999", "1.5", "true", '""', '"x"', '"/dev/null"', '"\\u0000"',
           "[]", "[1, 2]", "{}", "{ a = 1 }",
           "1979-05-27T07:32:00Z", "07:32:00", '"' + "x" * 5000 + '"', "[[[[[[]]]]]]", "0x7fffffff",
           '{ 0 = "seat99" }', '{ 99999999999999999999 = "seat1" }', '{ -1 = "board" }']
CAMERA_KEYS = ["source", "fps", "width", "height", "debounce", "enabled", "zones", "deck", "glyphs", "bogus"]


@functools.cache
def base_config() -> tuple[str, ...]:
    """The shipped example with every optional section switched on."""
    text = (ROOT / "config" / "table.example.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^# (\[\[?(hubs|tap|console|camera)\]\]?)$", r"\1", text)
    text = re.sub(r"(?m)^# ((name|device|baudrate|debounce_s|readers|pin|active_high|bounce_s|min_gap_s|"
                  r"stuck_after_s|new_hand|misdeal|floor|deck_check|deck_check_done|clock|source|fps) = )",
                  r"\1", text)
    text = text.replace('pin_factory = "lgpio"', 'pin_factory = "mock"')
    text = text.replace("enabled = true", "enabled = false")
    return tuple(text.splitlines())


@st.composite
def mutated_config(draw: st.DrawFn) -> str:
    lines = list(base_config())
    settable = [i for i, ln in enumerate(lines) if re.match(r"^[a-z_]+ = ", ln)]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "value", "camera", "delete", "raw"]))
        if kind == "value":
            i = draw(st.sampled_from(settable))
            lines[i] = lines[i].split(" = ")[0] + " = " + draw(st.sampled_from(HOSTILE))
        elif kind == "camera":
            at = lines.index("[camera]")
            key = draw(st.sampled_from(CAMERA_KEYS))
            if key in ("source", "fps"):
                lines = [ln for ln in lines if not ln.startswith(f"{key} = ")]
            lines.insert(at + 1, f"{key} = {draw(st.sampled_from(HOSTILE))}")
        elif kind == "delete":
            del lines[draw(st.sampled_from(settable))]
            settable = [i for i, ln in enumerate(lines) if re.match(r"^[a-z_]+ = ", ln)]
        else:
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = draw(st.text(max_size=40))
        settable = [i for i, ln in enumerate(lines) if re.match(r"^[a-z_]+ = ", ln)] or [0]
    return "\n".join(lines) + "\n"


def check(path: Path) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    run_cmd.register(parser)
    args = parser.parse_args(["--config", str(path), "--check"])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_cmd.run(args)
    return code, err.getvalue()


@functools.cache
def warm_up(tmp: Path) -> None:
    """Import what the camera and hardware sections load (OpenCV takes seconds the first time), so the
    time limit measures the validation, not the first import."""
    path = tmp / "base.toml"
    path.write_text(f'state_dir = "{tmp / "state"}"\n' + "\n".join(base_config()).replace(
        "state_dir = ", "# state_dir = "), encoding="utf-8")
    check(path)


@fuzz_settings(120)
@given(text=mutated_config())
def test_run_check_on_mutated_configs(tmp_path_factory: object, text: str) -> None:
    tmp = Path(str(tmp_path_factory.mktemp("cfg")))  # type: ignore[attr-defined]
    path = tmp / "table.toml"
    path.write_text(f'state_dir = "{tmp / "state"}"\n' + text.replace("state_dir = ", "# state_dir = "),
                    encoding="utf-8", errors="surrogateescape")
    warm_up(tmp)
    with answered_in_time("config", text):
        code, err = check(path)
    assert code in (0, 2), err
    if code == 2:
        assert err and all(line.startswith("cardtable run: ") for line in err.splitlines()), err
        return
    daemon = Daemon(load_config(path), publish=False)  # --check said OK: the daemon starts with it
    daemon.journal.close()
    daemon.outbox.close()
