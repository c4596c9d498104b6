"""Service verbs that read pages: each takes the :class:`~labeler.store.Store` and reads in
its own read-only session (:meth:`Store.session`)."""

from __future__ import annotations

from collections.abc import Sequence

from labeler.store.goldsets import page_texts
from labeler.store.session import Store


def read_page_texts(store: Store, doc_ids: Sequence[str]) -> dict[str, str]:
    """Document id → stored page text of each of ``doc_ids`` that is stored (an id that is
    not is absent from the result; :func:`labeler.store.goldsets.page_texts`)."""
    with store.session() as s:
        return page_texts(s, doc_ids)
