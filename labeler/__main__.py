from __future__ import annotations

from labeler.cli import main

raise SystemExit(main())
