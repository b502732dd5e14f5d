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
    # Tallies in shards: floor processes sharing one PostgreSQL database (a chain's central floors) each
    # add to the shard of their own server process, so no two writers queue on (or deadlock over) one hot
    # row; a read sums the shards. SQLite has one writer and uses shard 0.
    "CREATE TABLE IF NOT EXISTS fault_tallies (dealer TEXT NOT NULL, code TEXT NOT NULL,"
    " shard INTEGER NOT NULL, n BIGINT NOT NULL, PRIMARY KEY (dealer, code, shard))",
    "CREATE TABLE IF NOT EXISTS hand_tallies (dealer TEXT NOT NULL, shard INTEGER NOT NULL,"
    " n BIGINT NOT NULL, PRIMARY KEY (dealer, shard))",
    "CREATE TABLE IF NOT EXISTS counts_version (version INTEGER PRIMARY KEY)",
)
VERSION = 2  # 1: unsharded fault_counts/hand_counts (dropped when a store is counted again)
SHARDS = 8

# Count what is already stored (idempotent: a crash half-way just counts again on the next start).
BACKFILL = (
    "DELETE FROM open_faults", "DELETE FROM fault_tallies", "DELETE FROM hand_tallies",
    "INSERT INTO open_faults (table_id, alert_id, severity, seq) SELECT a.table_id, a.alert_id, a.severity,"
    " a.seq FROM alerts a LEFT JOIN acks k ON k.table_id = a.table_id AND k.alert_id = a.alert_id"
    f" WHERE k.seq IS NULL AND a.severity IN ({_FAULTS})",
    "INSERT INTO fault_tallies (dealer, code, shard, n) SELECT COALESCE(dealer, ''), code, 0, COUNT(*)"
    f" FROM alerts WHERE severity IN ({_FAULTS}) GROUP BY COALESCE(dealer, ''), code",
    "INSERT INTO hand_tallies (dealer, shard, n) SELECT COALESCE(dealer, ''), 0, COUNT(*) FROM hands"
    " GROUP BY COALESCE(dealer, '')",
    "INSERT INTO tables (table_id) SELECT DISTINCT table_id FROM alerts WHERE true ON CONFLICT DO NOTHING",
    "DROP TABLE IF EXISTS fault_counts", "DROP TABLE IF EXISTS hand_counts",  # version 1's
    f"INSERT INTO counts_version (version) VALUES ({VERSION})",
)

# The statements both dialects share inside their trigger bodies; {shard} is the dialect's shard number.
_ON_ALERT = ("INSERT INTO tables (table_id) VALUES (NEW.table_id) ON CONFLICT DO NOTHING;", (
    "INSERT INTO open_faults (table_id, alert_id, severity, seq)"
    " VALUES (NEW.table_id, NEW.alert_id, NEW.severity, NEW.seq) ON CONFLICT DO NOTHING;"
    " INSERT INTO fault_tallies (dealer, code, shard, n)"
    " VALUES (COALESCE(NEW.dealer, ''), NEW.code, {shard}, 1)"
    " ON CONFLICT (dealer, code, shard) DO UPDATE SET n = fault_tallies.n + 1;"))
_ON_ACK = "DELETE FROM open_faults WHERE table_id = NEW.table_id AND alert_id = NEW.alert_id;"
_ON_HAND = ("INSERT INTO hand_tallies (dealer, shard, n) VALUES (COALESCE(NEW.dealer, ''), {shard}, 1)"
            " ON CONFLICT (dealer, shard) DO UPDATE SET n = hand_tallies.n + 1;")

SQLITE_TRIGGERS = (
    # version 1's triggers wrote the unsharded tables
    "DROP TRIGGER IF EXISTS alerts_counted", "DROP TRIGGER IF EXISTS hands_counted",
    f"CREATE TRIGGER IF NOT EXISTS alerts_seen AFTER INSERT ON alerts BEGIN {_ON_ALERT[0]} END",
    f"CREATE TRIGGER IF NOT EXISTS alerts_tallied AFTER INSERT ON alerts WHEN NEW.severity IN ({_FAULTS})"
    f" BEGIN {_ON_ALERT[1].format(shard=0)} END",
    f"CREATE TRIGGER IF NOT EXISTS acks_counted AFTER INSERT ON acks BEGIN {_ON_ACK} END",
    f"CREATE TRIGGER IF NOT EXISTS hands_tallied AFTER INSERT ON hands BEGIN {_ON_HAND.format(shard=0)} END",
)
_PG_SHARD = f"mod(pg_backend_pid(), {SHARDS})"  # no `%`: the driver reads it as a placeholder


def _pg(name: str, table: str, body: str) -> tuple[str, str]:
    return (f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $body$"
            f" BEGIN {body} RETURN NULL; END $body$",
            f"CREATE OR REPLACE TRIGGER {name} AFTER INSERT ON {table} FOR EACH ROW"
            f" EXECUTE FUNCTION {name}()")


POSTGRES_TRIGGERS = (
    *_pg("alerts_counted", "alerts",
         f"{_ON_ALERT[0]} IF NEW.severity IN ({_FAULTS}) THEN"
         f" {_ON_ALERT[1].format(shard=_PG_SHARD)} END IF;"),
    *_pg("acks_counted", "acks", _ON_ACK),
    *_pg("hands_counted", "hands", _ON_HAND.format(shard=_PG_SHARD)),
)
