"""Roles (issue 21): who is an annotator, a lead or the owner; ``labeler annotators add
--role``, ``role`` and ``list``; what the audit log records. The rule through every path
is in ``test_rules.py`` (rows ``role:*``).

Real databases on both backends; the CLI runs as a real process.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process
from _db_dump import dump
from textual.pilot import Pilot

from labeler.errors import RoleError
from labeler.store import (
    Store,
    create_annotator,
    open_store,
    read_role,
    revoke_annotator,
    rotate_annotator_token,
    set_annotator_role,
    undo_change,
)

pytestmark = pytest.mark.backends("sqlite", "postgresql")
REPO = Path(__file__).resolve().parents[3]


def labeler(*args: str) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args, env={"LABELER_ANNOTATOR": "owner-of-the-file"})


def test_the_role_of_each_kind_of_name(store: Store) -> None:
    """Not registered: owner; registered: their role; revoked: annotator, even a lead (and a
    lead again once rotated back in)."""
    create_annotator(store, "ana", actor="boss")
    create_annotator(store, "lena", "lead", actor="boss")
    assert [read_role(store, n) for n in ("boss", "ana", "lena")] == ["owner", "annotator", "lead"]
    revoke_annotator(store, "lena")
    assert read_role(store, "lena") == "annotator"
    rotate_annotator_token(store, "lena")
    assert read_role(store, "lena") == "lead"


def test_only_a_lead_or_the_owner_registers_and_changes_roles(store: Store, db_url: str) -> None:
    create_annotator(store, "ana", actor="boss")
    before = dump(db_url)
    with pytest.raises(RoleError, match=r"^registering an annotator refused: ana is an annotator"):
        create_annotator(store, "carl", actor="ana")
    with pytest.raises(RoleError, match=r"^changing an annotator's role refused: ana is an"):
        set_annotator_role(store, "ana", "lead", actor="ana")
    assert dump(db_url) == before
    assert set_annotator_role(store, "ana", "lead", actor="boss") is True
    assert set_annotator_role(store, "ana", "lead", actor="boss") is False
    create_annotator(store, "carl", actor="ana")  # a lead now
    assert read_role(store, "carl") == "annotator"


def test_registering_and_role_changes_are_audited_without_the_token(
    store: Store, db_url: str
) -> None:
    """Entity ``annotator``, snapshots of id, name and role only; not on the undo stack (the
    owner's undo after them has nothing to undo)."""
    create_annotator(store, "ana", actor="boss")
    set_annotator_role(store, "ana", "lead", actor="boss")
    with store.session() as s:
        conn = s.connection()
        (token_hash,) = conn.exec_driver_sql("SELECT token_hash FROM annotator").one()
        entries = [
            (a, r, act, json.loads(b) if isinstance(b, str) else b, json.loads(f) if isinstance(f, str) else f)
            for a, r, act, b, f in conn.exec_driver_sql(
                'SELECT actor, actor_role, action, "before", "after" FROM audit_entry '
                "WHERE entity = 'annotator' ORDER BY id"
            )
        ]  # fmt: skip
    assert entries == [
        ("boss", "owner", "add", None, {"id": 1, "name": "ana", "role": "annotator"}),
        (
            "boss",
            "owner",
            "change",
            {"id": 1, "name": "ana", "role": "annotator"},
            {"id": 1, "name": "ana", "role": "lead"},
        ),
    ]
    assert token_hash not in repr(entries)
    assert undo_change(store, actor="boss") is None
    assert read_role(store, "ana") == "lead"


def test_cli_add_role_and_list(db_url: str) -> None:
    added = labeler("annotators", "add", "lena", "--role", "lead", "--db", db_url)
    assert added.returncode == 0, added.stderr
    assert "lead 'lena' added" in added.stderr
    assert labeler("annotators", "add", "ana", "--db", db_url).returncode == 0
    table = labeler("annotators", "list", "--db", db_url).stdout.splitlines()
    assert [line.split("\t")[:3] for line in table] == [
        ["ana", "annotator", "active"],
        ["lena", "lead", "active"],
    ]
    changed = labeler("annotators", "role", "ana", "lead", "--db", db_url)
    assert changed.returncode == 0 and "'ana' is now lead" in changed.stderr
    again = labeler("annotators", "role", "ana", "lead", "--db", db_url)
    assert again.returncode == 0 and "'ana' was lead already" in again.stderr
    listed = json.loads(labeler("annotators", "list", "--format", "json", "--db", db_url).stdout)
    assert [(r["name"], r["role"], r["active"], r["revoked_at"]) for r in listed] == [
        ("ana", "lead", True, None),
        ("lena", "lead", True, None),
    ]


def test_cli_role_refusals(db_url: str) -> None:
    """Bad input: one clear line, non-zero exit, no traceback, the database unchanged."""
    assert labeler("annotators", "add", "ana", "--db", db_url).returncode == 0
    before = dump(db_url)
    bad_role = labeler("annotators", "role", "ana", "boss", "--db", db_url)
    assert bad_role.returncode == 2 and "invalid choice: 'boss'" in bad_role.stderr
    bad_add = labeler("annotators", "add", "bob", "--role", "admin", "--db", db_url)
    assert bad_add.returncode == 2 and "invalid choice: 'admin'" in bad_add.stderr
    unknown = labeler("annotators", "role", "zoe", "lead", "--db", db_url)
    assert unknown.returncode == 1 and "no annotator 'zoe' in the database" in unknown.stderr
    by_annotator = labeler("annotators", "role", "ana", "lead", "--actor", "ana", "--db", db_url)
    assert by_annotator.returncode == 1
    assert by_annotator.stderr.strip() == (
        "labeler: error: changing an annotator's role refused: ana is an annotator; changing an "
        "annotator's role needs the lead role (labeler annotators role ana lead)"
    )
    for result in (bad_role, bad_add, unknown, by_annotator):
        assert "Traceback" not in result.stderr
    assert dump(db_url) == before
    with open_store(db_url) as store:
        assert read_role(store, "ana") == "annotator"


def test_tui_takes_actor_as_its_annotator() -> None:
    from labeler.cli import build_parser

    for flag in ("--annotator", "--actor"):
        assert build_parser().parse_args(["tui", flag, "ana"]).annotator == "ana"


@pytest.mark.backends("sqlite")
def test_tui_sees_a_role_change_without_a_restart(store: Store) -> None:
    """ana, an annotator, has no F5 in a team gold set; made a lead meanwhile (by another
    process, say), she has it after the next reload of the questions."""
    import asyncio

    from labeler.store import add_query, create_gold_set
    from labeler.store.team import add_assignment
    from labeler.tui.app import LabelerApp

    create_annotator(store, "ana", actor="boss")
    with store.write() as s:
        q = add_query(s, create_gold_set(s, "T"), "q1", "Which?", actor="boss")
        assert q.id is not None
        add_assignment(s, q.id, "ana", actor="boss")
    app = LabelerApp(store, annotator="ana", gold_set="T", resume=False)

    async def settle(pilot: Pilot[int]) -> None:
        for _ in range(5):
            await app.workers.wait_for_complete()
            await pilot.pause()

    def footer() -> set[str]:
        return {b.binding.action for b in app.screen.active_bindings.values()}

    async def run() -> None:
        async with app.run_test(size=(120, 36), notifications=False) as pilot:
            await settle(pilot)
            assert app.team and "toggle_done" in footer() and "adjudicate" not in footer()
            set_annotator_role(store, "ana", "lead", actor="boss")
            app.changed()
            await settle(pilot)
            assert app.role == "lead" and "adjudicate" in footer()

    asyncio.run(run())
