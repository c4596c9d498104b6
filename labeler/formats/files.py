"""Files the labeller writes beside their final name and renames into place when complete.

``tempfile.mkstemp`` creates its file with mode 0600 whatever the umask, so an export
renamed from it was readable by its owner only; :func:`create_beside` creates the file with
the permissions ``open()`` would give it (0666 less the umask, applied by the system
itself), or those of the file it is about to replace.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: names tried before giving up (each one is 8 random hex digits: a clash is already rare)
ATTEMPTS = 100


def create_beside(target: str | Path) -> tuple[int, str]:
    """A new, empty, hidden file in ``target``'s folder, open for writing: its descriptor
    and path (``.NAME.xxxxxxxx``), to be renamed over ``target`` once written.

    Its mode is what ``open(target, "w")`` would give: the mode of ``target`` when that is
    an existing regular file (kept, as a shell's ``>`` keeps it), else 0666 less the
    process umask. Raises ``OSError`` as ``os.open`` does (missing folder, no permission,
    full disk), ``FileExistsError`` when :data:`ATTEMPTS` names are all taken.
    """
    path = Path(target)
    try:
        info = path.stat()
        keep = stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None
    except OSError:
        keep = None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(ATTEMPTS):
        tmp = str(path.with_name(f".{path.name}.{os.urandom(4).hex()}"))
        try:
            fd = os.open(tmp, flags, 0o666)  # the system applies the umask
        except FileExistsError:
            continue
        if keep is not None:
            try:
                os.fchmod(fd, keep)
            except BaseException:
                os.close(fd)
                os.unlink(tmp)
                raise
        return fd, tmp
    raise FileExistsError(f"no free temporary name beside {path}")
