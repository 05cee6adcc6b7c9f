"""Telling a PostgreSQL connection URI from a home directory, and showing one safely.

A vault's location is a directory (SQLite) or a ``postgresql://`` / ``postgres://`` URI
(libpq's syntax; its query parameters, such as ``sslmode=verify-full``, pass through
to libpq as given). A URI may hold a password, so wherever memvault shows the location
(errors, ``memvault init``, logs) it shows :func:`describe_dsn`'s form, without it.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

_SCHEMES = ("postgresql://", "postgres://")
# Query parameters that carry a secret, dropped from what is shown.
_SECRET_PARAMS = frozenset({"password", "sslpassword", "passfile"})


def is_dsn(location: str | os.PathLike[str]) -> bool:
    """Whether a vault location names a PostgreSQL database rather than a directory."""
    return isinstance(location, str) and location.startswith(_SCHEMES)


def describe_dsn(dsn: str) -> str:
    """``dsn`` as it may be shown: user, host, port, database and safe parameters; no
    password. A URI that does not parse is shown by its scheme alone."""
    try:
        parts = urlsplit(dsn)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return dsn.split("://", 1)[0] + "://..."
    if ":" in host:
        host = f"[{host}]"
    user = f"{parts.username}@" if parts.username else ""
    netloc = f"{user}{host}{f':{port}' if port else ''}"
    query = urlencode(
        [(k, v) for k, v in parse_qsl(parts.query) if k.lower() not in _SECRET_PARAMS]
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def without_secrets(text: str, dsn: str) -> str:
    """``text`` (what libpq or psycopg said about ``dsn``) with the URI shown as
    :func:`describe_dsn` shows it, and its password nowhere: libpq quotes a token it
    could not parse (a password with a bad %-escape) or the whole URI (a ``[`` left
    open) in its error."""
    secrets: set[str] = set()
    rest = dsn.split("://", 1)[1] if "://" in dsn else dsn
    netloc = re.split(r"[/?]", rest, maxsplit=1)[0]
    password = netloc.rpartition("@")[0].partition(":")[2]
    secrets.update((password, unquote(password)))
    query = rest.partition("?")[2]
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key.lower() in _SECRET_PARAMS:
            secrets.update((value, unquote(value)))
    out = text.replace(dsn, describe_dsn(dsn))
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        out = out.replace(secret, "***")
    return out
