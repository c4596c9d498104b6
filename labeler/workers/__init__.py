"""Worker processes: forked workers that send their result back through a pipe, shared by
run import and gold import (half of a large file staged in another process) and scoring (ranges of
questions scored in several). See :mod:`labeler.workers._fork` and, for a process staging
half of a file, :mod:`labeler.workers._part`."""

from labeler.workers._cut import cut_point
from labeler.workers._fork import fork_writer, may_fork, stop, usable_cpus
from labeler.workers._part import Part, fork_stage

__all__ = ["Part", "cut_point", "fork_stage", "fork_writer", "may_fork", "stop", "usable_cpus"]
