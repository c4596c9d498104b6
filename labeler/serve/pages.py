"""The HTML ``labeler serve`` sends: the terminal page and short message pages.

Nothing here ever holds a token: the terminal page names only the websocket address (the
browser sends its cookie there), and the message pages say what happened in fixed words.
The terminal page is textual-serve's ``app_index.html`` without its web font (no request
leaves for a third-party host) and with our own "session ended" text.
"""

from __future__ import annotations

from html import escape

#: why a session ended, as the ``why`` of ``/ended?why=...``, and what the page says
ENDED: dict[str, tuple[str, str]] = {
    "idle": (
        "Session ended: idle",
        "Your session ended after a while without input. Your work is saved; "
        "open your link again to continue.",
    ),
    "revoked": (
        "Session ended: link revoked",
        "This link has been revoked or replaced. Ask for a new link.",
    ),
    "full": (
        "All sessions in use",
        "Every session of this server is in use. Your work is saved; try again in a few minutes.",
    ),
    "shutdown": (
        "Server stopped",
        "The server was stopped. Your work is saved; open your link again later.",
    ),
}

_STYLE = """body { background: #0c181f; color: rgba(255,255,255,0.95);
  font-family: menlo, "DejaVu Sans Mono", monospace; }
main { max-width: 40em; margin: 15vh auto; padding: 2em; background: #12232d; }
h1 { font-size: 1.3em; }"""


def message_page(title: str, text: str) -> str:
    """A small page with a heading and one paragraph (both escaped)."""
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n"
        f"<body><main><h1>{escape(title)}</h1><p>{escape(text)}</p></main></body></html>\n"
    )


UNAUTHORIZED = message_page(
    "Not signed in",
    "This page needs your personal link (it ends in ?token=...). The link you used is "
    "missing, mistyped, revoked or replaced by a newer one: ask for a new link.",
)

UNAVAILABLE = message_page(
    "Database unavailable",
    "The server cannot reach its database just now. Your work is saved; try again shortly.",
)


def switch_page(current: str, wanted: str) -> str:
    """The page of a link opened in a browser signed in as someone else: names both and
    asks; only the first button switches (both post to this server, no token in the page)."""
    title = "Switch annotator?"
    c, w = escape(current), escape(wanted)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>{_STYLE}\nbutton {{ padding: 0.8em 1.6em; "
        "margin: 0.5em 1em 0 0; }</style></head>\n<body><main>"
        f"<h1>{title}</h1><p>This browser is signed in as <b id='current'>{c}</b>. The link "
        f"you opened is <b id='wanted'>{w}</b>'s. Labels made after switching are stored "
        f"under {w}'s name.</p>"
        f"<form method='post' action='switch'><button id='switch' type='submit'>"
        f"Switch to {w}</button></form>"
        f"<form method='post' action='stay'><button id='stay' type='submit'>"
        f"Stay signed in as {c}</button></form></main></body></html>\n"
    )


def full_page(limit: int) -> str:
    """The page shown when all ``limit`` sessions are in use."""
    title, text = ENDED["full"]
    return message_page(title, f"{text} (at most {limit} at once)")


def ended_page(why: str) -> str:
    """The page a session's browser is sent to when the server ends it."""
    title, text = ENDED.get(why, ("Session ended", "Open your link again to continue."))
    return message_page(title, text)


def terminal_page(*, title: str, websocket_url: str, static_url: str, font_size: int) -> str:
    """The page that runs textual-serve's terminal (``static/js/textual.js``)."""
    t, ws, st = escape(title), escape(websocket_url), escape(static_url)
    return f"""<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{t}</title>
<link rel="stylesheet" href="{st}css/xterm.css" />
<script src="{st}js/textual.js"></script>
<style>
body {{ background: #0c181f; margin: 0; }}
.dialog-container {{ position: absolute; width: 100vw; height: 100vh; display: flex;
  align-items: center; justify-content: center; z-index: 10; }}
.intro {{ width: 640px; height: 240px; font-size: 16px; z-index: 20;
  font-family: menlo, monospace; text-align: center; color: rgba(255,255,255,0.95);
  background-color: #12232d; display: flex; align-items: center; justify-content: center;
  flex-direction: column; }}
body.-first-byte .intro-dialog {{ display: none; }}
body .textual-terminal {{ opacity: 0; }}
body.-first-byte .textual-terminal {{ opacity: 1; }}
button {{ padding: 16px 32px; background-color: #5e0ba7; color: white; border: none;
  margin: 16px; }}
.closed-dialog {{ display: none; }}
body.-closed .closed-dialog {{ display: flex; }}
</style>
</head>
<body>
<div class="dialog-container intro-dialog"><div class="intro">{t}: starting…</div></div>
<div class="dialog-container closed-dialog"><div class="intro">
<div class="message">Session ended. Your work is saved.</div>
<button type="button" onclick="window.location.reload()">Restart</button>
</div></div>
<div id="terminal" class="textual-terminal" data-session-websocket-url="{ws}"
  data-font-size="{font_size}"></div>
</body>
</html>
"""
