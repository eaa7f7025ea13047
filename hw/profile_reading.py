"""Reading a TOML table so that every problem names its key: the profile's reading helpers.

`tomllib` gives nested dicts; a mistake in a hand-written profile should come back as one line
that says where and what, never a traceback. A `Table` wraps one dict with its dotted key and
checks each value as it is read: its type (an integer is accepted where a number is asked for,
``true`` is not an integer), its range (``check`` with ``what`` for the message), and at the end
(`done`) that no key was left unread, which catches typos:

>>> t = Table({"rate_hz": 100, "baud": "fast", "silnt_s": 1}, "scanner")
>>> t.get("rate_hz", int, 50, lambda v: 1 <= v <= 2000, "frames per second 1..2000")
100
>>> t.get("baud", int, 921600)
Traceback (most recent call last):
...
firmware_py.errors.ProfileError: scanner.baud: expected an integer, got 'fast'
>>> t.get("silent_s", float, 2.0)
2.0
>>> t.done()
Traceback (most recent call last):
...
firmware_py.errors.ProfileError: scanner.silnt_s: unknown key (known here: baud, rate_hz, silent_s)

`dvonn_hw.profile` reads every table of a board profile with these.
"""

from __future__ import annotations

from typing import Any

from firmware_py.errors import ProfileError


class Table:
    """A TOML table being read: knows its dotted key and complains about unknown keys."""

    def __init__(self, data: Any, key: str):
        if not isinstance(data, dict):
            raise ProfileError(key, f"expected a table, got {type(data).__name__}")
        self.data, self.key, self.used = data, key, set()

    def path(self, name: str) -> str:
        return f"{self.key}.{name}" if self.key else name

    def get(self, name: str, kind: type | tuple, default: Any = ..., check=None, what: str = ""):
        self.used.add(name)
        key = self.path(name)
        if name not in self.data:
            if default is ...:
                raise ProfileError(key, "missing")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            if float in kinds and isinstance(value, int) and not isinstance(value, bool):
                try:
                    value = float(value)
                except OverflowError:  # an integer of hundreds of digits
                    raise ProfileError(key, f"expected {what or kind_name(kinds)}, got an "
                                            "integer too large for any setting") from None
            else:
                raise ProfileError(key, f"expected {what or kind_name(kinds)}, got {value!r}")
        if check is not None and not check(value):
            raise ProfileError(key, f"expected {what}, got {value!r}")
        return value

    def table(self, name: str, required: bool = False) -> Table | None:
        self.used.add(name)
        if name not in self.data:
            if required:
                raise ProfileError(self.path(name), "missing table")
            return None
        return Table(self.data[name], self.path(name))

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise ProfileError(self.path(unknown[0]),
                               f"unknown key (known here: {', '.join(sorted(self.used))})")


def kind_name(kinds: tuple) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def int_list(t: Table, name: str, default, length: int | None, check, what: str) -> tuple:
    values = t.get(name, list, default)
    if length is not None and len(values) != length:
        raise ProfileError(t.path(name), f"expected {length} entries, got {len(values)}")
    for i, v in enumerate(values):
        if not isinstance(v, int) or isinstance(v, bool) or not check(v):
            raise ProfileError(f"{t.path(name)}[{i}]", f"expected {what}, got {v!r}")
    return tuple(values)
