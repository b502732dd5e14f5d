"""The shipped broker config (config/mosquitto/cardtable.conf) for a test broker: only the listener port,
the file paths and the authentication (password file or anonymous) are substituted."""

from __future__ import annotations

import getpass
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[2] / "config" / "mosquitto" / "cardtable.conf"


def shipped_config(*, port: int, workdir: Path, password_file: Path | None, acl_file: Path | None,
                   source: Path = SHIPPED) -> str:
    """The shipped config for a broker on 127.0.0.1:`port` keeping its files under `workdir`.

    Without a password file the broker takes anonymous clients and has no ACL (tests of the daemon's own
    behaviour); everything else — queue limits, persistence, $SYS interval — is the shipped text.
    """
    out: list[str] = []
    for line in source.read_text(encoding="utf-8").splitlines():
        key = line.split(" ", 1)[0]
        if key == "listener":
            line = f"listener {port} 127.0.0.1"
        elif key == "password_file":
            line = f"password_file {password_file}" if password_file else ""
        elif key == "acl_file":
            line = f"acl_file {acl_file}" if acl_file else ""
        elif key == "allow_anonymous":
            line = f"allow_anonymous {'false' if password_file else 'true'}"
        elif key == "persistence_location":
            line = f"persistence_location {workdir}/"
        out.append(line)
    # Started as root, mosquitto would become the `mosquitto` user and lose access to our tmp files.
    out += [f"user {getpass.getuser()}", f"log_dest file {workdir}/mosquitto.log",
            "log_type error", "log_type warning", "log_type notice"]
    return "\n".join(out) + "\n"
