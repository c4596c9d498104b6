"""``labeler serve``: the annotator TUI in browsers, with one secret link per annotator.

:mod:`~labeler.serve.server` (routes, sign-in, session checks), :mod:`~labeler.serve.children`
(the TUI process behind a session), :mod:`~labeler.serve.sessions` (cap and expiry),
:mod:`~labeler.serve.pages` (HTML). Imported only by the ``serve`` command: aiohttp and
textual-serve stay out of every other command.
"""
