"""HTML tag definitions: block/inline, void, whitespace-preserving, form-listed.

Follows jsoup 1.15.3's parser/Tag.java (MIT licence, (c) Jonathan Hedley). Only the
``ParseSettings.htmlDefault`` behaviour is needed: names are trimmed (Java ``String.trim``:
code points <= U+0020) and lower-cased. Known tags are shared singletons; an unknown tag
is a fresh inline Tag (``is_block=False``, ``format_as_block=True``, not known).
"""

from __future__ import annotations

_JAVA_TRIM = "".join(chr(c) for c in range(0x21))


def normal_name(name: str) -> str:
    """ParseSettings.normalName: ``lowerCase(name.trim())``."""
    return name.strip(_JAVA_TRIM).lower()


class Tag:
    """A tag's rendering and parsing properties (parser/Tag.java)."""

    __slots__ = (
        "empty",
        "form_list",
        "form_submit",
        "format_as_block",
        "is_block",
        "known",
        "name",
        "normal_name",
        "preserve_whitespace",
        "self_closing",
    )

    def __init__(self, name: str, known: bool = False) -> None:
        self.name = name
        self.normal_name = name.lower()
        self.is_block = True
        self.format_as_block = True
        self.empty = False
        self.self_closing = False
        self.preserve_whitespace = False
        self.form_list = False
        self.form_submit = False
        self.known = known

    @staticmethod
    def value_of(name: str) -> Tag:
        """Tag.valueOf(name, htmlDefault): the known tag, or a new inline unknown tag."""
        tag = _TAGS.get(name)
        if tag is None:
            name = normal_name(name)
            if not name:
                raise ValueError("tag name must not be empty")  # Validate.notEmpty
            tag = _TAGS.get(name)
            if tag is None:
                tag = Tag(name)
                tag.is_block = False
        return tag

    def is_inline(self) -> bool:
        return not self.is_block

    def is_known(self) -> bool:
        """Tag.isKnownTag(): registered in the static table."""
        return self.known

    def is_self_closing(self) -> bool:
        return self.empty or self.self_closing

    def set_self_closing(self) -> None:
        self.self_closing = True

    def __repr__(self) -> str:
        return self.name


def is_known_tag(name: str) -> bool:
    """Static Tag.isKnownTag(String)."""
    return name in _TAGS


def _words(text: str) -> list[str]:
    return text.split()


_BLOCK = _words(
    "html head body frameset script noscript style meta link title frame noframes section nav"
    " aside hgroup header footer p h1 h2 h3 h4 h5 h6 ul ol pre div blockquote hr address figure"
    " figcaption form fieldset ins del dl dt dd li table caption thead tfoot tbody colgroup col"
    " tr th td video audio canvas details menu plaintext template article main svg math center"
    " template dir applet marquee listing"
)
_INLINE = _words(
    "object base font tt i b u big small em strong dfn code samp kbd var cite abbr time acronym"
    " mark ruby rt rp a img br wbr map q sub sup bdo iframe embed span input select textarea"
    " label button optgroup option legend datalist keygen output progress meter area param"
    " source track summary command device area basefont bgsound menuitem param source track"
    " data bdi s strike nobr"
)
_EMPTY = _words(
    "meta link base frame img br wbr embed hr input keygen col command device area basefont"
    " bgsound menuitem param source track"
)
_FORMAT_AS_INLINE = _words(
    "title a p h1 h2 h3 h4 h5 h6 pre address li th td script style ins del s"
)
_PRESERVE = _words("pre plaintext title textarea")
_FORM_LISTED = _words("button fieldset input keygen object output select textarea")
_FORM_SUBMIT = _words("input keygen object select textarea")

_TAGS: dict[str, Tag] = {}
for _n in _BLOCK:
    _TAGS[_n] = Tag(_n, True)  # a repeated name ("template") replaces the entry, as in Java
for _n in _INLINE:
    _t = Tag(_n, True)
    _t.is_block = False
    _t.format_as_block = False
    _TAGS[_n] = _t
for _n in _EMPTY:
    _TAGS[_n].empty = True
for _n in _FORMAT_AS_INLINE:
    _TAGS[_n].format_as_block = False
for _n in _PRESERVE:
    _TAGS[_n].preserve_whitespace = True
for _n in _FORM_LISTED:
    _TAGS[_n].form_list = True
for _n in _FORM_SUBMIT:
    _TAGS[_n].form_submit = True

KNOWN_TAGS = _TAGS.keys()  # for `name in KNOWN_TAGS` (isKnownTag) without a call
