"""The comment states: BogusComment, MarkupDeclarationOpen, CommentStart, CommentStartDash,
Comment, CommentEndDash, CommentEnd, CommentEndBang, and CdataSection.

CDATA sections are read anywhere (not only in foreign content), as jsoup does.

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from ..reader import EOF_CHAR, CharacterReader
from ..token import CData
from ..tokeniser import Tokeniser
from .state import (
    NUL,
    REPL,
    BogusComment,
    CdataSection,
    Comment,
    CommentEnd,
    CommentEndBang,
    CommentEndDash,
    CommentStart,
    CommentStartDash,
    Data,
    Doctype,
    MarkupDeclarationOpen,
)

_COMMENT_STOP = "-\x00"


def _bogus_comment(t: Tokeniser, r: CharacterReader) -> None:
    t.comment_pending.append(r.consume_to(">"))
    nxt = r.current()
    if nxt == ">" or nxt == EOF_CHAR:
        r.consume()
        t.emit_comment_pending()
        t.state = Data


def _markup_declaration_open(t: Tokeniser, r: CharacterReader) -> None:
    if r.match_consume("--"):
        t.create_comment_pending()
        t.state = CommentStart
    elif r.match_consume_ignore_case("DOCTYPE"):
        t.state = Doctype
    elif r.match_consume("[CDATA["):
        t.create_temp_buffer()
        t.state = CdataSection
    else:
        t.create_bogus_comment_pending()
        t.state = BogusComment


def _comment_start(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentStartDash
    elif c == NUL:
        t.comment_pending.append(REPL)
        t.state = Comment
    elif c == ">" or c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        r.unconsume()
        t.state = Comment


def _comment_start_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentEnd
    elif c == NUL:
        t.comment_pending.append(REPL)
        t.state = Comment
    elif c == ">" or c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append(c)
        t.state = Comment


def _comment(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == "-":
        t.advance_transition(CommentEndDash)
    elif c == NUL:
        r.advance()
        t.comment_pending.append(REPL)
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append(r.consume_to_any(_COMMENT_STOP))


def _comment_end_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentEnd
    elif c == NUL:
        t.comment_pending.append("-" + REPL)
        t.state = Comment
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("-" + c)
        t.state = Comment


def _comment_end(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == ">":
        t.emit_comment_pending()
        t.state = Data
    elif c == NUL:
        t.comment_pending.append("--" + REPL)
        t.state = Comment
    elif c == "!":
        t.state = CommentEndBang
    elif c == "-":
        t.comment_pending.append("-")
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("--" + c)
        t.state = Comment


def _comment_end_bang(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.comment_pending.append("--!")
        t.state = CommentEndDash
    elif c == ">":
        t.emit_comment_pending()
        t.state = Data
    elif c == NUL:
        t.comment_pending.append("--!" + REPL)
        t.state = Comment
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("--!" + c)
        t.state = Comment


def _cdata_section(t: Tokeniser, r: CharacterReader) -> None:
    t.data_buffer.append(r.consume_to("]]>"))
    if r.match_consume("]]>") or r.is_empty():
        t.emit(CData(t.data_buffer_str()))
        t.state = Data
    # otherwise the window ended: stay in the section


# --- wiring ---

BogusComment.read = _bogus_comment
MarkupDeclarationOpen.read = _markup_declaration_open
CommentStart.read = _comment_start
CommentStartDash.read = _comment_start_dash
Comment.read = _comment
CommentEndDash.read = _comment_end_dash
CommentEnd.read = _comment_end
CommentEndBang.read = _comment_end_bang
CdataSection.read = _cdata_section
