"""Keys typed right behind a key that moves the focus go where the focus moved.

The app reads a terminal's keys one after the other and hands each to the widget focused
at that moment, into that widget's queue; the widget runs the key's action later, in its
own turn. A fast typist's ``a`` (add a question) and the id behind it were all handed to
the questions list before the list had run ``a`` and opened the dialog: the id's ``e``
then opened the editor of another question, and the rest was lost. The same with ``/``
and the filter typed behind it.

So after a key bound to an action of the screen or the app (not the focused widget's own
keys, such as a table's arrows, and not characters typed into a text field), the app holds
the keys that follow (:class:`LabelerApp.on_event`) until the widget has run it: a
:class:`KeyTurn` posted behind the key comes back to the app once it has. If the action
opened a dialog that takes early keys (:class:`TakesEarlyKeys`) and it is not ready yet,
the keys wait for its :class:`KeysReady`. The held keys are then read again in order. A
hold never lasts more than :data:`HOLD_AT_MOST` seconds (a key whose widget went away
before its turn): the keys are then read as they would have been.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.message import Message

#: the longest a key is held behind another one, in seconds
HOLD_AT_MOST = 1.0


class KeyTurn(Message):
    """Posted to the focused widget behind a key that may move the focus; reaches the app
    (bubbling up) once the widget has run that key."""


class KeysReady(Message):
    """Posted to the app by a dialog once its first field has the focus."""


@runtime_checkable
class TakesEarlyKeys(Protocol):
    """A dialog that wants the keys typed while it opens: ``keys_ready`` turns true (and
    :class:`KeysReady` is posted) once its first field is focused."""

    keys_ready: bool
