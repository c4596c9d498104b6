"""Finding extraction profiles by name: built-in, ``package.module:function``, or an
entry point of the group ``labeler.profiles``.

A third-party profile is either a :class:`~labeler.extract.Profile` or a plain function
``bytes → str``. A function's version is its ``version`` (or ``__version__``) attribute,
else the version of the distribution that installs it, else ``0``; a ``blocks`` attribute,
a function ``bytes → (text, offsets)``, makes it report block offsets. Its name is the
entry point's name, or the ``package.module:function`` it was given as. A page records
``name@version``, so a page extracted by another version of a profile is never read as
if this one had made it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

from labeler.errors import ExtractError
from labeler.extract._profile import DEFAULT_PROFILE, PROFILES, Profile

ENTRY_POINT_GROUP = "labeler.profiles"


def _bs4() -> Profile:
    from labeler.extract import bs4text

    return Profile(
        bs4text.NAME,
        'BeautifulSoup(data, "html.parser").get_text()',
        bs4text.bs4_get_text,
        version=bs4text.version(),
        blocks=bs4text.bs4_blocks,
    )


#: built-in profiles made on first use (their version needs an import)
LAZY: dict[str, Callable[[], Profile]] = {"bs4-get-text": _bs4}


def split_stored(spec: str) -> tuple[str, str]:
    """``"bs4-get-text@4.12.3"`` → ``("bs4-get-text", "4.12.3")``; no ``@``: no version."""
    name, at, version = spec.rpartition("@")
    return (name, version) if at else (spec, "")


@functools.cache
def get_profile(spec: str) -> Profile:
    """The profile ``spec`` names: a built-in name, ``package.module:function``, an
    entry-point name, each optionally with ``@version`` as pages store it.

    Raises :class:`ExtractError` for an unknown name, a function that cannot be imported,
    or a stored version other than the installed one (the pages need re-ingesting).
    """
    name, version = split_stored(spec)
    profile = _find(name)
    if version and profile.version != version:
        raise ExtractError(
            f"pages were extracted with profile {spec!r}, but the installed {name!r} is "
            f"version {profile.version or '(none)'}; ingest them again with it"
        )
    return profile


def _find(name: str) -> Profile:
    if name in PROFILES:
        return PROFILES[name]
    if name in LAZY:
        return LAZY[name]()
    if ":" in name:
        return _wrap(name, _import(name), None)
    from importlib import metadata  # only here: a tenth of the module's import time

    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            dist = getattr(ep, "dist", None)
            return _wrap(name, ep.load(), dist.version if dist is not None else None)
    known = ", ".join(profile_names())
    raise ExtractError(
        f"unknown profile {name!r}; known: {known} (or package.module:function, or a "
        f"{ENTRY_POINT_GROUP!r} entry point)"
    )


def profile_names() -> list[str]:
    """Built-in and entry-point profile names, sorted."""
    from importlib import metadata

    installed = {ep.name for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return sorted(set(PROFILES) | set(LAZY) | installed)


def _import(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` does
    try:
        target: Any = importlib.import_module(module_name)
        for part in attr.split("."):
            target = getattr(target, part)
    except (ImportError, AttributeError) as err:
        raise ExtractError(f"profile {spec!r}: cannot import it ({err})") from None
    return target


def _distribution_version(module: str) -> str | None:
    from importlib import metadata

    top = module.partition(".")[0]
    for dist in metadata.packages_distributions().get(top, []):
        return metadata.version(dist)
    return None


def _wrap(name: str, found: Any, dist_version: str | None) -> Profile:
    """``found`` (a Profile or a function) as the profile called ``name``."""
    if isinstance(found, Profile):
        return dataclasses.replace(found, name=name)
    if not callable(found):
        raise ExtractError(f"profile {name!r}: {type(found).__name__} is not a function")
    version = getattr(found, "version", None) or getattr(found, "__version__", None)
    if version is None:
        version = dist_version or _distribution_version(getattr(found, "__module__", "")) or "0"

    def extract(data: bytes, engine: str | None) -> str:
        if engine is not None:
            raise ExtractError(f"profile {name!r} has no engines")
        text = found(data)
        if not isinstance(text, str):
            raise ExtractError(f"profile {name!r} returned {type(text).__name__}, not str")
        return text

    blocks = getattr(found, "blocks", None)
    return Profile(
        name,
        getattr(found, "__doc__", None) or name,
        extract,
        version=str(version),
        blocks=blocks if callable(blocks) else None,
    )


def page_text(data: bytes, profile: str = DEFAULT_PROFILE, *, engine: str | None = None) -> str:
    """Return the page text of ``data`` under ``profile``.

    ``engine`` picks an HTML parser for profiles that have several. For ``jsoup-1.15.3``
    the default, ``jsoup``, is the exact one (lexbor for pages a conservative check
    vouches for, the parser port for the rest), and nearly the fastest: as
    ``benchmarks/bench_extract.py`` measures it on the bundled corpus against the jar (a
    precompiled class, same run, idle 2-core machine), cold (JVM start included) it takes
    0.5x the jar's CPU time and 0.9x its wall time, ``lexbor`` (the fastest) 0.46x and
    0.87x, ``html5lib`` about 5x; warm, per page, 2.1x and 1.9x the jar's CPU. ``lexbor`` and ``html5lib`` keep the few gaps listed in
    :mod:`labeler.extract.prepass`. Raises
    :class:`~labeler.errors.ExtractError` for an unknown profile or engine.
    ``profile`` may also be a stored name (``name@version``; another version of the
    profile is an error), ``package.module:function`` or an entry-point name (see
    :func:`labeler.extract.profiles.get_profile`).
    """
    prof = PROFILES.get(profile)
    if prof is None:
        prof = get_profile(profile)
    return prof.extract(data, engine)
