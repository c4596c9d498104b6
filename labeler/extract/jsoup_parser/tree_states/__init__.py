"""The tree builder's insertion modes.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley): one
function per enum constant, named as the constant (``InBody``, ``InTable``...), taking the
token and the builder and returning whether the token was processed. jsoup's
``Constants`` arrays are frozensets (``constants``); the InBody start and end tags dispatch
on the normal name through dicts. ``error(...)`` calls are dropped (nothing is reported).

The modes by where they serve: ``head`` (Initial to AfterHead), ``body`` (InBody, with its
start tags in ``body_start`` and end tags in ``body_end``), ``table``, ``other`` (Text,
select, template, ForeignContent), ``after`` (after the body, framesets); ``mode`` holds what
they share. Modes call and transition to each other as plain module globals: a module holds
``unwired`` under the name of each sibling module's mode it uses, and this package replaces
those with the modes once every module is loaded (no import cycle, no lookup per token).
"""

from __future__ import annotations

from ..token import EOF
from . import after, body, body_end, body_start, head, mode, other, table
from .after import AfterAfterBody, AfterAfterFrameset, AfterBody, AfterFrameset, InFrameset
from .body import InBody
from .body_end import IN_BODY_END, IN_BODY_END_NOT_SIMPLE, in_body_end_other
from .body_start import IN_BODY_START, in_body_start_other
from .constants import TAG_SEARCH_SPECIAL, InBodyEndAdoptionFormatters
from .head import AfterHead, BeforeHead, BeforeHtml, InHead, InHeadNoscript, Initial
from .mode import State, unwired
from .other import ForeignContent, InSelect, InSelectInTable, InTemplate, Text
from .table import InCaption, InCell, InColumnGroup, InRow, InTable, InTableBody, InTableText

__all__ = [
    "EOF",
    "IN_BODY_END",
    "IN_BODY_END_NOT_SIMPLE",
    "IN_BODY_START",
    "RESET_MODES",
    "TAG_SEARCH_SPECIAL",
    "AfterAfterBody",
    "AfterAfterFrameset",
    "AfterBody",
    "AfterFrameset",
    "AfterHead",
    "BeforeHead",
    "BeforeHtml",
    "ForeignContent",
    "HtmlTreeBuilderState",
    "InBody",
    "InBodyEndAdoptionFormatters",
    "InCaption",
    "InCell",
    "InColumnGroup",
    "InFrameset",
    "InHead",
    "InHeadNoscript",
    "InRow",
    "InSelect",
    "InSelectInTable",
    "InTable",
    "InTableBody",
    "InTableText",
    "InTemplate",
    "Initial",
    "State",
    "Text",
    "in_body_end_other",
    "in_body_start_other",
]


class HtmlTreeBuilderState:
    """The insertion modes under jsoup's enum constant names."""

    Initial = Initial
    BeforeHtml = BeforeHtml
    BeforeHead = BeforeHead
    InHead = InHead
    InHeadNoscript = InHeadNoscript
    AfterHead = AfterHead
    InBody = InBody
    Text = Text
    InTable = InTable
    InTableText = InTableText
    InCaption = InCaption
    InColumnGroup = InColumnGroup
    InTableBody = InTableBody
    InRow = InRow
    InCell = InCell
    InSelect = InSelect
    InSelectInTable = InSelectInTable
    InTemplate = InTemplate
    AfterBody = AfterBody
    InFrameset = InFrameset
    AfterFrameset = AfterFrameset
    AfterAfterBody = AfterAfterBody
    AfterAfterFrameset = AfterAfterFrameset
    ForeignContent = ForeignContent


# Each module's sibling modes: every global still ``unwired`` is named as the mode it stands for.
for _module in (mode, head, body, body_start, body_end, table, other, after):
    for _name, _value in list(vars(_module).items()):
        if _value is unwired and _name != "unwired":
            setattr(_module, _name, getattr(HtmlTreeBuilderState, _name))
body_start.TABLE_STATES = frozenset((InTable, InCaption, InTableBody, InRow, InCell))

# HtmlTreeBuilder.resetInsertionMode: stack element name -> mode, for the unconditional cases.
RESET_MODES: dict[str, State] = {
    "select": InSelect,
    "tr": InRow,
    "tbody": InTableBody,
    "thead": InTableBody,
    "tfoot": InTableBody,
    "caption": InCaption,
    "colgroup": InColumnGroup,
    "table": InTable,
    "body": InBody,
    "frameset": InFrameset,
}
