"""`cardtable camera calibrate|detect`: set up the overhead camera and check what it sees."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "camera"
HELP = "overhead camera: calibrate zones and deck, or detect cards in images"


def register(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="camera_cmd", metavar="ACTION", required=True)
    c = sub.add_parser("calibrate", help="capture a frame; store zones, card size, back design and glyphs")
    c.add_argument("--config", required=True, type=Path,
                   help="table config (TOML); its [camera] tables are rewritten")
    c.add_argument("--source", help="camera to capture from (default: [camera].source of the config)")
    c.add_argument("--image", type=Path, help="use this image instead of capturing")
    c.add_argument("--empty", type=Path, metavar="IMAGE",
                   help="a photo of the empty table from the same fixed camera: learned as the reference "
                        "cards are found against (then --image shows one card per zone)")
    c.add_argument("--png", type=Path,
                   help="where to write the frame with zones drawn (default: next to the config)")
    c.add_argument("--zone", action="append", default=[], metavar="NAME=x,y;x,y;…",
                   help="set a zone polygon in frame pixels (repeatable)")
    c.add_argument("--zones-from-cards", metavar="NAMES",
                   help="one card lies in each zone: names in reading order, comma separated")
    c.add_argument("--learn-back", action="store_true",
                   help="the frame shows at least 3 separate face-down cards of the table's deck")
    c.add_argument("--learn-glyphs", metavar="CARDS",
                   help="the frame shows these face-up cards in reading order, e.g. 'Ac 2d 3h … Kc'")
    d = sub.add_parser("detect", help="print every card found in images")
    d.add_argument("images", nargs="+", type=Path)
    d.add_argument("--config", type=Path, help="table config with [camera] calibration (optional)")
    d.add_argument("--json", action="store_true", help="one JSON object per image")


def run(args: argparse.Namespace) -> int:
    # OpenCV and the vision package load only when this command runs, not for every `cardtable` call.
    from controller.errors import require_camera

    require_camera()  # without the `camera` extra: one line naming it, not an ImportError
    from controller.vision.cli import run as run_camera

    return run_camera(args)
