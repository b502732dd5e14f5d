"""What the floor's pages count, kept by the database as rows change (triggers), and the pages' indexes.

Open fault alerts per table, fault alerts per dealer and code, and hands per dealer live in small tables
that triggers update in the same transaction as the insert (or the ruling) that changes them, so the
tables list, the live-stream snapshot and the all-time statistics cost the same with 10^5 stored alerts
as with ten. An existing store is counted once when these tables first appear.
"""

from __future__ import annotations

from controller.core.alerts import FAULT_SEVERITIES

_FAULTS = ", ".join(f"'{s}'" for s in sorted(FAULT_SEVERITIES))

TABLES = (
    "CREATE INDEX IF NOT EXISTS alerts_table_seq ON alerts (table_id, seq)",
    "CREATE INDEX IF NOT EXISTS alerts_code_seq ON alerts (code, seq)",
    # No index on severity: five values, each common; one would lure the planners away from `received`.
    "CREATE INDEX IF NOT EXISTS hands_received ON hands (received)",
    "CREATE TABLE IF NOT EXISTS open_faults (table_id TEXT NOT NULL, alert_id TEXT NOT NULL,"
    " severity TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (table_id, alert_id))",
    "CREATE INDEX IF NOT EXISTS open_faults_seq ON open_faults (seq)",
    "CREATE TABLE IF NOT EXISTS fault_counts (dealer TEXT NOT NULL, code TEXT NOT NULL, n BIGINT NOT NULL,"
    " PRIMARY KEY (dealer, code))",
    "CREATE TABLE IF NOT EXISTS hand_counts (dealer TEXT PRIMARY KEY, n BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS counts_version (version INTEGER PRIMARY KEY)",
)

# Count what is already stored (idempotent: a crash half-way just counts again on the next start).
BACKFILL = (
    "DELETE FROM open_faults", "DELETE FROM fault_counts", "DELETE FROM hand_counts",
    "INSERT INTO open_faults (table_id, alert_id, severity, seq) SELECT a.table_id, a.alert_id, a.severity,"
    " a.seq FROM alerts a LEFT JOIN acks k ON k.table_id = a.table_id AND k.alert_id = a.alert_id"
    f" WHERE k.seq IS NULL AND a.severity IN ({_FAULTS})",
    "INSERT INTO fault_counts (dealer, code, n) SELECT COALESCE(dealer, ''), code, COUNT(*) FROM alerts"
    f" WHERE severity IN ({_FAULTS}) GROUP BY COALESCE(dealer, ''), code",
    "INSERT INTO hand_counts (dealer, n) SELECT COALESCE(dealer, ''), COUNT(*) FROM hands"
    " GROUP BY COALESCE(dealer, '')",
    "INSERT INTO tables (table_id) SELECT DISTINCT table_id FROM alerts WHERE true ON CONFLICT DO NOTHING",
    "INSERT INTO counts_version (version) VALUES (1)",
)

# The statements both dialects share inside their trigger bodies.
_ON_ALERT = ("INSERT INTO tables (table_id) VALUES (NEW.table_id) ON CONFLICT DO NOTHING;", (
    "INSERT INTO open_faults (table_id, alert_id, severity, seq)"
    " VALUES (NEW.table_id, NEW.alert_id, NEW.severity, NEW.seq) ON CONFLICT DO NOTHING;"
    " INSERT INTO fault_counts (dealer, code, n) VALUES (COALESCE(NEW.dealer, ''), NEW.code, 1)"
    " ON CONFLICT (dealer, code) DO UPDATE SET n = fault_counts.n + 1;"))
_ON_ACK = "DELETE FROM open_faults WHERE table_id = NEW.table_id AND alert_id = NEW.alert_id;"
_ON_HAND = ("INSERT INTO hand_counts (dealer, n) VALUES (COALESCE(NEW.dealer, ''), 1)"
            " ON CONFLICT (dealer) DO UPDATE SET n = hand_counts.n + 1;")

SQLITE_TRIGGERS = (
    f"CREATE TRIGGER IF NOT EXISTS alerts_seen AFTER INSERT ON alerts BEGIN {_ON_ALERT[0]} END",
    f"CREATE TRIGGER IF NOT EXISTS alerts_counted AFTER INSERT ON alerts WHEN NEW.severity IN ({_FAULTS})"
    f" BEGIN {_ON_ALERT[1]} END",
    f"CREATE TRIGGER IF NOT EXISTS acks_counted AFTER INSERT ON acks BEGIN {_ON_ACK} END",
    f"CREATE TRIGGER IF NOT EXISTS hands_counted AFTER INSERT ON hands BEGIN {_ON_HAND} END",
)


def _pg(name: str, table: str, body: str) -> tuple[str, str]:
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $body$"
            f" BEGIN {body} RETURN NULL; END $body$",
            f"CREATE OR REPLACE TRIGGER {name} AFTER INSERT ON {table} FOR EACH ROW"
            f" EXECUTE FUNCTION {name}()")


POSTGRES_TRIGGERS = (
    *_pg("alerts_counted", "alerts",
         f"{_ON_ALERT[0]} IF NEW.severity IN ({_FAULTS}) THEN {_ON_ALERT[1]} END IF;"),
    *_pg("acks_counted", "acks", _ON_ACK),
    *_pg("hands_counted", "hands", _ON_HAND),
)
