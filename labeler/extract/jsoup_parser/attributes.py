"""Follows jsoup 1.15.3's nodes.Attributes (MIT licence, (c) Jonathan Hedley).

Only what the parser needs: an ordered list of (key, value) pairs where ``value`` is ``None``
for a boolean attribute (``<input disabled>``); ``add`` appends without checking (the tokeniser
keeps duplicates), ``put`` replaces the first case-sensitive match, ``deduplicate`` keeps the
first of each key. Keys starting with ``/`` followed by at least one character are jsoup
internal keys and are skipped by iteration. Case-insensitive comparisons follow Java's
``String.equalsIgnoreCase`` (per UTF-16 unit: equal, or equal upper case, or equal lower case of
the upper case).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["Attributes", "equals_ignore_case"]

_INTERNAL_PREFIX = "/"


def _char_eq_ic(a: str, b: str) -> bool:
    if a == b:
        return True
    ua, ub = a.upper(), b.upper()
    if len(ua) != 1 or len(ub) != 1:  # Character.toUpperCase(char) maps one unit to one unit
        ua, ub = a, b
    return ua == ub or ua.lower() == ub.lower()


def equals_ignore_case(a: str, b: str) -> bool:
    """Java ``a.equalsIgnoreCase(b)``: same length, each unit pair equal ignoring case."""
    if a == b:
        return True
    if len(a) != len(b):
        return False
    if a.isascii() and b.isascii():
        return a.lower() == b.lower()
    return all(_char_eq_ic(x, y) for x, y in zip(a, b, strict=True))


def _is_internal(key: str) -> bool:
    return len(key) > 1 and key[0] == _INTERNAL_PREFIX


class Attributes:
    """Ordered attributes; ``keys[i]`` has value ``vals[i]`` (``None``: boolean attribute)."""

    __slots__ = ("keys", "vals")

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.vals: list[str | None] = []

    def _index_of_key(self, key: str) -> int:
        try:
            return self.keys.index(key)
        except ValueError:
            return -1

    def _index_of_key_ignore_case(self, key: str) -> int:
        for i, k in enumerate(self.keys):
            if equals_ignore_case(key, k):
                return i
        return -1

    def get(self, key: str) -> str:
        """The value of ``key`` (case-sensitive); ``""`` if absent or boolean."""
        i = self._index_of_key(key)
        return "" if i < 0 else (self.vals[i] or "")

    def get_ignore_case(self, key: str) -> str:
        i = self._index_of_key_ignore_case(key)
        return "" if i < 0 else (self.vals[i] or "")

    def add(self, key: str, value: str | None) -> Attributes:
        """Append without checking for an existing key (Java ``add``)."""
        self.keys.append(key)
        self.vals.append(value)
        return self

    def put(self, key: str, value: str | None) -> Attributes:
        """Replace the value of ``key`` (case-sensitive) or append it."""
        i = self._index_of_key(key)
        if i >= 0:
            self.vals[i] = value
        else:
            self.add(key, value)
        return self

    def put_ignore_case(self, key: str, value: str | None) -> None:
        i = self._index_of_key_ignore_case(key)
        if i >= 0:
            self.vals[i] = value
            self.keys[i] = key
        else:
            self.add(key, value)

    def remove(self, key: str) -> None:
        i = self._index_of_key(key)
        if i >= 0:
            del self.keys[i]
            del self.vals[i]

    def remove_ignore_case(self, key: str) -> None:
        i = self._index_of_key_ignore_case(key)
        if i >= 0:
            del self.keys[i]
            del self.vals[i]

    def has_key(self, key: str) -> bool:
        return key in self.keys

    def has_key_ignore_case(self, key: str) -> bool:
        return self._index_of_key_ignore_case(key) >= 0

    def has_declared_value_for_key(self, key: str) -> bool:
        i = self._index_of_key(key)
        return i >= 0 and self.vals[i] is not None

    def has_declared_value_for_key_ignore_case(self, key: str) -> bool:
        i = self._index_of_key_ignore_case(key)
        return i >= 0 and self.vals[i] is not None

    def size(self) -> int:
        """Number of attributes, internal keys included (Java ``size()``)."""
        return len(self.keys)

    def __len__(self) -> int:
        return len(self.keys)

    def is_empty(self) -> bool:
        return not self.keys

    def __iter__(self) -> Iterator[tuple[str, str]]:
        """(key, value) pairs in order, internal keys skipped; boolean values read as ``""``."""
        for k, v in zip(self.keys, self.vals, strict=True):
            if not _is_internal(k):
                yield k, v or ""

    def items_raw(self) -> list[tuple[str, str | None]]:
        """All (key, value) pairs with ``None`` for boolean attributes."""
        return list(zip(self.keys, self.vals, strict=True))

    def add_all(self, incoming: Attributes) -> None:
        """Java ``addAll``: iterates ``incoming`` (values read as strings) putting each."""
        if not incoming.keys:
            return
        needs_put = bool(self.keys)
        for k, v in incoming:
            if needs_put:
                self.put(k, v)
            else:
                self.add(k, v)

    def normalize(self) -> None:
        """Lower-case every key (Locale.ENGLISH)."""
        self.keys = list(map(str.lower, self.keys))

    def deduplicate(self, preserve_case: bool = False) -> int:
        """Drop later duplicates of each key (case-insensitively unless ``preserve_case``)."""
        keys, vals = self.keys, self.vals
        dupes = 0
        i = 0
        while i < len(keys):
            j = i + 1
            while j < len(keys):
                same = keys[i] == keys[j] if preserve_case else equals_ignore_case(keys[i], keys[j])
                if same:
                    dupes += 1
                    del keys[j]
                    del vals[j]
                else:
                    j += 1
            i += 1
        return dupes

    def clone(self) -> Attributes:
        c = Attributes()
        c.keys = list(self.keys)
        c.vals = list(self.vals)
        return c

    def __repr__(self) -> str:
        return f"Attributes({self.items_raw()!r})"
