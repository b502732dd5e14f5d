"""Floor staff authentication: scrypt password hashes, server-side sessions and their CSRF tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from controller.errors import UsageError

# scrypt cost: 2**15 × 8 × 128 B = 32 MiB and ~50 ms per check on a Raspberry Pi 4 class CPU; slow enough
# to make offline guessing expensive, fast enough for a login form.
_N, _R, _P = 2**15, 8, 1
_MAXMEM = 64 * 1024 * 1024


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii").rstrip("=")


def _unb64(s: str) -> bytes:
    return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)


def hash_password(password: str, *, n: int = _N, r: int = _R, p: int = _P) -> str:
    """`scrypt$n$r$p$salt$key`, the format the config's users.<name>.hash expects."""
    salt = secrets.token_bytes(16)
    key = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=32)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(key)}"


def parse_hash(encoded: str) -> tuple[int, int, int, bytes, bytes]:
    """Split a stored hash into its parameters; bad input raises UsageError naming what is wrong."""
    parts = encoded.split("$")
    if len(parts) != 6 or parts[0] != "scrypt":
        raise UsageError("password hash must look like scrypt$n$r$p$salt$key "
                         "(use `cardtable floor hash-password`)")
    try:
        n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, key = _unb64(parts[4]), _unb64(parts[5])
    except ValueError:
        raise UsageError("password hash has a bad number or base64 field") from None
    if n < 2 or n & (n - 1) or r < 1 or p < 1 or len(key) < 16:
        raise UsageError("password hash has impossible scrypt parameters")
    return n, r, p, salt, key


def verify_password(password: str, encoded: str) -> bool:
    """Constant-time check of `password` against a stored hash."""
    n, r, p, salt, key = parse_hash(encoded)
    got = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=len(key))
    return hmac.compare_digest(got, key)


_dummy: list[str] = []


def _dummy_hash() -> str:
    """Checked when the user name is unknown, so a wrong name costs as much time as a wrong password."""
    if not _dummy:
        _dummy.append(hash_password(secrets.token_urlsafe(16)))
    return _dummy[0]


def token_digest(token: str) -> str:
    """Sessions are kept under a digest of the cookie, so a copy of the store yields no usable session."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, kw_only=True, slots=True)
class Session:
    token: str  # the cookie value; "" for a session restored from the store (only its digest is kept)
    user: str | None  # None: a login-page session that only carries a CSRF token
    role: str | None
    csrf: str
    expires: float

    @property
    def can_ack(self) -> bool:
        return self.role in ("floor", "supervisor")

    @property
    def key(self) -> str:
        return token_digest(self.token)


@dataclass(kw_only=True, slots=True)
class _Failures:
    count: int = 0
    last: float = 0.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Limit:
    """`free` failures are allowed outright; after that each attempt waits `base` × 2^(extra failures)
    seconds after the last failure, at most `cap`: a backoff, never a lockout."""

    free: int
    base: float
    cap: float

    def wait(self, f: _Failures) -> float:
        if f.count < self.free:
            return 0.0
        return min(self.cap, self.base * 2.0 ** min(f.count - self.free, 30))


class LoginLimiter:
    """Failed-login backoff per account and per client address (and per account and address).

    `begin` counts an attempt as a failure before the password is checked, in one step without an
    await, so parallel requests cannot all pass the check before any of them is recorded; `succeeded`
    clears the account's and the address's record. The per-account limit is looser and its cap short, so
    a guesser elsewhere slows a real user down by at most `ACCOUNT.cap` seconds and cannot lock them out;
    the guesser's own address and account-and-address keys back off harder. Memory is bounded: past
    `max_keys`, entries whose backoff is over are dropped, then the oldest."""

    ACCOUNT_AT_ADDRESS = Limit(free=5, base=1.0, cap=60.0)
    ADDRESS = Limit(free=10, base=1.0, cap=300.0)
    ACCOUNT = Limit(free=20, base=1.0, cap=30.0)

    def __init__(self, *, clock: Callable[[], float], max_keys: int = 10000) -> None:
        self._clock = clock
        self._max_keys = max_keys
        self._by_key: dict[str, _Failures] = {}
        self.refused = 0

    def _keys(self, user: str, address: str) -> list[tuple[str, Limit]]:
        return [(f"u:{user}@{address}", self.ACCOUNT_AT_ADDRESS), (f"a:{address}", self.ADDRESS),
                (f"u:{user}", self.ACCOUNT)]

    def begin(self, user: str, address: str) -> float:
        """0.0: go ahead (the attempt is already counted as a failure); else the seconds to wait."""
        now = self._clock()
        keys = self._keys(user, address)
        wait = 0.0
        for key, limit in keys:
            f = self._by_key.get(key)
            if f is not None:
                wait = max(wait, f.last + limit.wait(f) - now)
        if wait > 0:
            self.refused += 1
            return wait
        for key, _ in keys:
            f = self._by_key.setdefault(key, _Failures())
            f.count += 1
            f.last = now
        self._bound(now)
        return 0.0

    def succeeded(self, user: str, address: str) -> None:
        for key, _ in self._keys(user, address):
            self._by_key.pop(key, None)

    def _bound(self, now: float) -> None:
        if len(self._by_key) <= self._max_keys:
            return
        cap = max(self.ACCOUNT_AT_ADDRESS.cap, self.ADDRESS.cap, self.ACCOUNT.cap)
        self._by_key = {k: f for k, f in self._by_key.items() if now - f.last < cap}
        while len(self._by_key) > self._max_keys:  # a flood within the cap: forget the oldest
            self._by_key.pop(min(self._by_key, key=lambda k: self._by_key[k].last))

    def __len__(self) -> int:
        return len(self._by_key)


class Sessions:
    """Server-side sessions, keyed by token digest; logged-in ones are also saved in the store (web.py),
    so a restart of the service does not log out the floor or the wall display."""

    MAX_ANONYMOUS = 2000
    ANONYMOUS_TTL = 900.0

    def __init__(self, *, ttl: float, clock: Callable[[], float]) -> None:
        self._ttl = ttl
        self._clock = clock
        self._by_key: dict[str, Session] = {}

    def _new(self, user: str | None, role: str | None, ttl: float) -> Session:
        s = Session(token=secrets.token_urlsafe(32), user=user, role=role, csrf=secrets.token_urlsafe(32),
                    expires=self._clock() + ttl)
        self._by_key[s.key] = s
        return s

    def restore(self, key: str, *, user: str, role: str, csrf: str, expires: float) -> None:
        """Re-add a logged-in session loaded from the store."""
        if expires > self._clock():
            self._by_key[key] = Session(token="", user=user, role=role, csrf=csrf, expires=expires)

    def anonymous(self) -> Session:
        """A short-lived session for the login form, so the login POST is CSRF-checked too. They expire
        after ANONYMOUS_TTL and at most MAX_ANONYMOUS exist: past that the oldest goes (a flood of
        `GET /login` costs memory no longer; its victims just reload the form)."""
        self._sweep()
        anonymous = [k for k, s in self._by_key.items() if s.user is None]
        for key in anonymous[:max(0, len(anonymous) - self.MAX_ANONYMOUS + 1)]:  # oldest first (dict order)
            del self._by_key[key]
        return self._new(None, None, min(self._ttl, self.ANONYMOUS_TTL))

    def login(self, user: str, role: str, old_token: str | None) -> Session:
        """A fresh token on login (never reuse the pre-login token: no session fixation)."""
        if old_token:
            self._by_key.pop(token_digest(old_token), None)
        return self._new(user, role, self._ttl)

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        key = token_digest(token)
        s = self._by_key.get(key)
        if s is None or s.expires <= self._clock():
            self._by_key.pop(key, None)
            return None
        return s if s.token else _with_token(s, token)

    def logout(self, token: str | None) -> None:
        if token:
            self._by_key.pop(token_digest(token), None)

    def _sweep(self) -> None:
        now = self._clock()
        for key in [k for k, s in self._by_key.items() if s.expires <= now]:
            del self._by_key[key]

    def __len__(self) -> int:
        return len(self._by_key)


def _with_token(s: Session, token: str) -> Session:
    return Session(token=token, user=s.user, role=s.role, csrf=s.csrf, expires=s.expires)


def check_login(users: Mapping[str, tuple[str, str]], user: str, password: str) -> str | None:
    """The user's role when name and password match, else None; `users` maps name → (hash, role)."""
    entry = users.get(user)
    if entry is None:
        verify_password(password, _dummy_hash())
        return None
    return entry[1] if verify_password(password, entry[0]) else None


def csrf_ok(session: Session, supplied: str | None) -> bool:
    return bool(supplied) and hmac.compare_digest(session.csrf, supplied or "")
