"""No password in any line: a store's name as messages show it, and the server's messages scrubbed.

A PostgreSQL password reaches the command three ways (libpq's): in the URL
(`postgresql://user:PASSWORD@host/db`, percent-encoded or not: a raw `@`
or `/` in it is a URL libpq splits elsewhere, and then quotes a part of it
in its error), as a `password=` parameter (the URL's query, or a keyword
string), or in the environment (PGPASSWORD).  masked() writes a store's
name without any of them; scrub() takes every one, and every part of one
that a parser could have split off, out of a message, or says the message
cannot be shown.
"""
import os
import re
from urllib.parse import unquote

_SCHEME = re.compile(r"^[A-Za-z][\w+.-]*://")
# password=VALUE in a keyword string or a URL's query: a quoted value (libpq's '...' with \' inside) or a word
_KEYWORD = re.compile(r"(?i)(\bpass(?:word)?\s*=\s*)('(?:[^'\\]|\\.)*'?|[^&\s;]*)")
_PARTS = re.compile(r"[^/@:?#&=\s]{2,}")
HIDDEN = "***"


def _userinfo(text):
    """(start, end) of the password in a URL's user info: after the first ':' of what precedes the last '@' before
    the query (where libpq stops at the first '@' or '/', a password holding either would be split: this takes the
    widest reading, so that no part of it is left out)."""
    m = _SCHEME.match(text)
    if not m:
        return None
    query = text.find("?", m.end())
    end = len(text) if query < 0 else query
    at = text.rfind("@", m.end(), end)
    colon = text.find(":", m.end(), at) if at >= 0 else -1
    return (colon + 1, at) if colon >= 0 else None


def passwords(db):
    """Every text in db (a URL, a keyword string, a path) or $PGPASSWORD that is, or may be, a password: as written
    and percent-decoded."""
    text = str(db or "")
    found = {os.environ.get("PGPASSWORD") or ""}
    span = _userinfo(text)
    if span:
        found.add(text[span[0]:span[1]])
    for m in _KEYWORD.finditer(text):
        found.add(m.group(2).strip("'"))
    query = text.find("?") if _SCHEME.match(text) else -1
    for part in re.split(r"[&;]", text[query + 1:]) if query >= 0 else []:
        key, eq, value = part.partition("=")
        if eq and unquote(key).strip().lower() in ("password", "pass"):
            found.add(value)
    if _SCHEME.match(text) or "=" in text:
        try:
            from psycopg2.extensions import parse_dsn      # libpq's own reading, where the client is installed
            found.add(parse_dsn(text).get("password") or "")
        except Exception:     # noqa: BLE001 - not a string libpq takes, or no psycopg2: the readings above stand
            pass
    return {f for s in found for f in (s, unquote(s)) if f}


def masked(db):
    """The store as messages name it: the URL's password, every password= value and $PGPASSWORD written ***."""
    text = str(db)
    span = _userinfo(text)
    if span:
        text = text[:span[0]] + HIDDEN + text[span[1]:]
    text = _KEYWORD.sub(lambda m: m.group(1) + HIDDEN, text)
    if _SCHEME.match(text) and "?" in text:
        head, sep, query = text.partition("?")
        parts = []
        for part in re.split(r"([&;])", query):        # the separators kept as parts of their own
            key, eq, _ = part.partition("=")
            parts.append(key + eq + HIDDEN if eq and unquote(key).strip().lower() in ("password", "pass") else part)
        text = head + sep + "".join(parts)
    # the structural masks above are what matters; scrub takes out the rest ($PGPASSWORD in a path, say)
    return scrub(text, db) or text


def scrub(message, db):
    """message without the passwords of db (passwords()), or None when a part of one is still in it (a parser split
    the password and quotes a piece of it): the caller then leaves the message out."""
    secrets = sorted(passwords(db), key=len, reverse=True)
    for s in secrets:
        if len(s) >= 4 or s == os.environ.get("PGPASSWORD"):
            message = message.replace(s, HIDDEN)
    # what is left of a password (a piece another parser split off, a short one) must not be shown at all: a piece
    # standing on its own in the message, as a quoted value does ("pa", not the "ss" of "address")
    pieces = {p for s in secrets for p in _PARTS.findall(s)} | {s for s in secrets if len(s) >= 2}
    alone = lambda p: re.search(rf"(?<![A-Za-z0-9]){re.escape(p)}(?![A-Za-z0-9])", message)
    return None if any(alone(p) for p in pieces) else message
