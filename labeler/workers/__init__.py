"""Worker processes: forked workers that send their result back through a pipe, shared by
run import and gold import (half of a large file staged in another process) and scoring (ranges of
questions scored in several). See :mod:`labeler.workers._fork`."""

from labeler.workers._cut import cut_point
from labeler.workers._fork import fork_writer, may_fork, stop, usable_cpus

__all__ = ["cut_point", "fork_writer", "may_fork", "stop", "usable_cpus"]
