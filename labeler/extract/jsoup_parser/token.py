"""Follows jsoup 1.15.3's parser.Token (MIT licence, (c) Jonathan Hedley).

Tokens are reused by the tokeniser (one StartTag, one EndTag, one Character, one Comment, one
Doctype per tokeniser, reset on each use), as in jsoup: a consumer must copy what it keeps.
``type`` is one of DOCTYPE, START_TAG, END_TAG, COMMENT, CHARACTER, EOF.

Tag names: ``tag_name`` as written (NUL replaced by U+FFFD), ``normal_name`` =
``tag_name.strip(<= U+0020).lower()`` (jsoup ParseSettings.normalName). Attributes are
collected one at a time (``new_attribute``): the pending name is trimmed of characters
<= U+0020 (Java ``String.trim``), dropped if that leaves it empty, and ``add``-ed (duplicates
kept; the tree builder deduplicates) with value ``None`` when no value was given; at most 512
attributes per tag, later ones dropped.
"""

from __future__ import annotations

import sys

from .attributes import Attributes

__all__ = [
    "CHARACTER",
    "COMMENT",
    "DOCTYPE",
    "END_TAG",
    "EOF",
    "MAX_ATTRIBUTES",
    "START_TAG",
    "CData",
    "Character",
    "Comment",
    "Doctype",
    "EndTag",
    "EofToken",
    "StartTag",
    "Tag",
    "Token",
    "java_trim",
    "normal_name",
    "normal_tag_name",
]

DOCTYPE, START_TAG, END_TAG, COMMENT, CHARACTER, EOF = range(6)

MAX_ATTRIBUTES = 512
REPLACEMENT_CHAR = "\ufffd"
_TRIM = "".join(chr(i) for i in range(0x21))


def java_trim(s: str) -> str:
    """Java ``String.trim``: strip characters <= U+0020 from both ends."""
    return s.strip(_TRIM)


def normal_name(name: str) -> str:
    """jsoup ``ParseSettings.normalName``: trimmed, lower-cased (Locale.ENGLISH)."""
    return name.strip(_TRIM).lower()


NORMAL_NAMES: dict[str, str] = {}
"""Tag name as written -> its ``normal_name`` (interned): the first 4096 names seen of at most
32 characters."""
_NORMAL_NAMES_MAX = 4096
_NORMAL_NAMES_LEN = 32


def normal_tag_name(name: str) -> str:
    """``normal_name(name)``, interned and remembered in ``NORMAL_NAMES`` (speed only)."""
    n = NORMAL_NAMES.get(name)
    if n is None:
        n = sys.intern(name.strip(_TRIM).lower())
        if len(name) <= _NORMAL_NAMES_LEN and len(NORMAL_NAMES) < _NORMAL_NAMES_MAX:
            NORMAL_NAMES[name] = n
    return n


class Token:
    """Base token; ``type`` tells the kind."""

    __slots__ = ("type",)

    def __init__(self, type_: int) -> None:
        self.type = type_

    def reset(self) -> Token:
        return self

    def is_doctype(self) -> bool:
        return self.type == DOCTYPE

    def is_start_tag(self) -> bool:
        return self.type == START_TAG

    def is_end_tag(self) -> bool:
        return self.type == END_TAG

    def is_comment(self) -> bool:
        return self.type == COMMENT

    def is_character(self) -> bool:
        return self.type == CHARACTER

    def is_cdata(self) -> bool:
        return False

    def is_eof(self) -> bool:
        return self.type == EOF

    def token_type(self) -> str:
        return type(self).__name__


class Doctype(Token):
    __slots__ = ("force_quirks", "name", "pub_sys_key", "public_identifier", "system_identifier")

    def __init__(self) -> None:
        super().__init__(DOCTYPE)
        self.name = ""
        self.pub_sys_key: str | None = None
        self.public_identifier = ""
        self.system_identifier = ""
        self.force_quirks = False

    def reset(self) -> Doctype:
        self.name = ""
        self.pub_sys_key = None
        self.public_identifier = ""
        self.system_identifier = ""
        self.force_quirks = False
        return self

    def get_name(self) -> str:
        return self.name

    def get_pub_sys_key(self) -> str | None:
        return self.pub_sys_key

    def get_public_identifier(self) -> str:
        return self.public_identifier

    def get_system_identifier(self) -> str:
        return self.system_identifier

    def is_force_quirks(self) -> bool:
        return self.force_quirks

    def __str__(self) -> str:
        return f"<!doctype {self.name}>"


class Tag(Token):
    """Start or end tag being built / emitted."""

    __slots__ = (
        "_attr_name",
        "_attr_value",
        "_has_attr_name",
        "_has_attr_value",
        "_has_empty_attr_value",
        "attributes",
        "normal_name",
        "self_closing",
        "tag_name",
    )

    def __init__(self, type_: int) -> None:
        super().__init__(type_)
        self.tag_name: str | None = None
        self.normal_name: str | None = None
        self.self_closing = False
        self.attributes: Attributes | None = None
        self._attr_name: list[str] = []
        self._has_attr_name = False
        self._attr_value: list[str] = []
        self._has_attr_value = False
        self._has_empty_attr_value = False

    def reset(self) -> Tag:
        self.tag_name = None
        self.normal_name = None
        self.self_closing = False
        self.attributes = None
        # the pending attribute lists are empty unless their flag is set
        if self._has_attr_name or self._has_attr_value or self._has_empty_attr_value:
            self.clear_pending_attribute()
        return self

    def clear_pending_attribute(self) -> None:
        self._attr_name.clear()
        self._has_attr_name = False
        self._attr_value.clear()
        self._has_attr_value = False
        self._has_empty_attr_value = False

    def new_attribute(self) -> None:
        """Finish the pending attribute (see module docstring) and clear the pending state."""
        if self.attributes is None:
            self.attributes = Attributes()
        if self._has_attr_name and len(self.attributes.keys) < MAX_ATTRIBUTES:
            name = "".join(self._attr_name).strip(_TRIM)
            if name:
                value: str | None
                if self._has_attr_value:
                    value = "".join(self._attr_value)
                elif self._has_empty_attr_value:
                    value = ""
                else:
                    value = None
                self.attributes.add(name, value)
        self.clear_pending_attribute()

    def has_attributes(self) -> bool:
        return self.attributes is not None

    def has_attribute(self, key: str) -> bool:
        return self.attributes is not None and self.attributes.has_key(key)

    def finalise_tag(self) -> None:
        if self._has_attr_name:
            self.new_attribute()

    def name(self) -> str:
        """The tag name as written (Java ``name()``; jsoup validates it is non-empty)."""
        if not self.tag_name:
            raise ValueError("tag name must not be empty")
        return self.tag_name

    def to_string_name(self) -> str:
        return self.tag_name if self.tag_name is not None else "[unset]"

    def set_name(self, name: str) -> Tag:
        """Java ``name(String)``."""
        self.tag_name = name
        self.normal_name = normal_tag_name(name)
        return self

    def is_self_closing(self) -> bool:
        return self.self_closing

    def append_tag_name(self, append: str) -> None:
        append = append.replace("\x00", REPLACEMENT_CHAR)
        name = append if self.tag_name is None else self.tag_name + append
        self.tag_name = name
        self.normal_name = name.strip(_TRIM).lower()

    def append_attribute_name(self, append: str) -> None:
        """Append to the pending attribute name, NUL replaced by U+FFFD."""
        self._has_attr_name = True
        self._attr_name.append(append.replace("\x00", REPLACEMENT_CHAR))

    def append_attribute_name_char(self, append: str) -> None:
        """Java ``appendAttributeName(char)``: no NUL replacement."""
        self._has_attr_name = True
        self._attr_name.append(append)

    def append_attribute_value(self, append: str) -> None:
        self._has_attr_value = True
        self._attr_value.append(append)

    def set_empty_attribute_value(self) -> None:
        self._has_empty_attr_value = True


class StartTag(Tag):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(START_TAG)

    def name_attr(self, name: str, attributes: Attributes | None) -> StartTag:
        """Java ``nameAttr``: set name and attributes (used by the tree builder)."""
        self.tag_name = name
        self.attributes = attributes
        self.normal_name = normal_tag_name(name)
        return self

    def __str__(self) -> str:
        if self.attributes is not None and self.attributes.size() > 0:
            attrs = " ".join(
                k if v is None else f'{k}="{v}"' for k, v in self.attributes.items_raw()
            )
            return f"<{self.to_string_name()} {attrs}>"
        return f"<{self.to_string_name()}>"


class EndTag(Tag):
    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(END_TAG)

    def __str__(self) -> str:
        return f"</{self.to_string_name()}>"


class Comment(Token):
    """A comment; ``data`` is the text (built from parts, joined on read)."""

    __slots__ = ("_parts", "bogus")

    def __init__(self) -> None:
        super().__init__(COMMENT)
        self._parts: list[str] = []
        self.bogus = False

    def reset(self) -> Comment:
        self._parts.clear()
        self.bogus = False
        return self

    @property
    def data(self) -> str:
        parts = self._parts
        if len(parts) > 1:
            parts[:] = ["".join(parts)]
        return parts[0] if parts else ""

    def get_data(self) -> str:
        return self.data

    def append(self, append: str) -> Comment:
        self._parts.append(append)
        return self

    def __str__(self) -> str:
        return f"<!--{self.data}-->"


class Character(Token):
    __slots__ = ("data",)

    def __init__(self, data: str = "") -> None:
        super().__init__(CHARACTER)
        self.data = data

    def reset(self) -> Character:
        self.data = ""
        return self

    def set_data(self, data: str) -> Character:
        """Java ``data(String)``."""
        self.data = data
        return self

    def get_data(self) -> str:
        return self.data

    def __str__(self) -> str:
        return self.data


class CData(Character):
    __slots__ = ()

    def is_cdata(self) -> bool:
        return True

    def __str__(self) -> str:
        return f"<![CDATA[{self.data}]]>"


class EofToken(Token):
    """The end-of-file token (Java ``Token.EOF``; ``EOF`` here is the type constant)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(EOF)

    def __str__(self) -> str:
        return ""
