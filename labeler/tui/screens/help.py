"""The help screen (F1 or ?): every key binding in one place."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from labeler.tui.grade_keys import GRADE_MEANING

HELP = """\
# labeler — key bindings

**Everywhere**: `F1`/`?` help · `F2` questions · `F3` documents · `F4` scores (each
always shows its list) · `u` next question without elements · `ctrl+p` command palette
(go to question: opens its first element's page) · `ctrl+z` undo · `ctrl+y` redo ·
`ctrl+q` quit. A restart reopens your last question and page.

**Questions** (F2): `a` add · `e` edit (text and notes) · `x` delete ·
`enter` make current and open its page (or the documents list) · `g` next gold set ·
`/` filter: words in id or text, `is:labelled` `is:unlabelled` `is:mine` (`escape` clears)

**Documents** (F3): type to search ids and full text (exact id first) · `enter` open the
first match · `down` into the results, `enter` open one

**Page view**

| key | action |
|---|---|
| mouse drag, `shift+arrows`, double-click | select |
| `w` / `s` / `b` | extend to word / sentence / block (again: the next one) |
| `W` / `S` / `B` | shrink to the whole words / sentences / blocks inside |
| `t` | trim surrounding whitespace |
| `a` or `enter` | attach the selection to the current question (saved at once) |
| `1` `2` `3` | grade the element under the cursor (see the grades below) |
| `x` | remove the element under the cursor |
| `K` | key clause: select inside an element of the current question, press `K`: that clause (shown underlined) must come back whole for a chunk to count as Partial; `K` with no selection clears it |
| `]` / `[` | next / previous element of the current question on this page |
| `v` | review the current question: every element on every page (`enter` opens it, `1`-`3` grade, `x` remove) |
| `.` / `,` | next / previous question, staying on the page |
| `/`, then `n` / `N` | find in page, next / previous match (wrapping round, said); lower case matches any case, a capital makes it exact |
| `ctrl+t` | find whole words only, or any part of a word again |
| `ctrl+home` / `ctrl+end` | start / end of the page |
| `A` | assist mode: show a run's top chunks (elements are recorded as assisted); the run chosen on the scores screen |
| `r` / `+` `-` | assist: next run / more or fewer chunks |
| `c` / `C` | assist: select the next / previous chunk found on this page |
| `escape` | back |

**Grades** (how much an element matters to the answer; the gain in nDCG):
{grades}. New elements get grade 1.

The readout under the page shows the grade of the element under the cursor, or for a
selection its start–end, length and how many times the selected text occurs on the page;
more than once is flagged (scoring will flag repeated text).
Every change is committed at once and written to the audit log with your name;
undo and redo follow your own changes only, also after a restart.
""".replace("{grades}", " · ".join(f"`{g}` {m}" for g, m in GRADE_MEANING.items()))


TEAM_HELP = """
**Team gold set** (shown only in one): you see and label only your own elements on a
question until it is adjudicated (then its final layer, read-only here) ·
`u` next question in your queue (assigned to you, not done) · `D` mark the current
question done, or not done again (none of yours: confirm "no answer on these pages";
`ctrl+z` undoes it) · `/` `is:done` `is:todo` · `F5` adjudication

**Adjudication** (F5): the questions done by 2+ annotators, lowest agreement first; each
annotator's spans in a colour, all annotators' in green, accepted ones underlined ·
`a` accept the span · `U` accept every unanimous span · `x` reject (an accepted span leaves
the final layer) · `1`-`3` grade an accepted span · `w` / `W` its end one word out / in ·
`e` the page selection (`tab` to the page, `shift+arrows`) becomes its boundaries, or is
accepted · `K` the page selection becomes the accepted span's key clause (none: cleared) ·
`m` mark the question adjudicated (nothing accepted: "no answer") · `s` list the settled
questions too (who settled each, when) · `r` reopen a settled one (pending again, to change
and settle again) · `ctrl+z` undo. An accepted span keeps its annotators' key clause when
they agree on it; when they set different keys it is accepted without one and the message
says so (then `K`). A grade tie takes the lower grade (shown on the span's line).
"""


class HelpScreen(ModalScreen[None]):
    """Key bindings and how labelling works."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,question_mark,q", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP + (TEAM_HELP if getattr(self.app, "team", False) else ""))
