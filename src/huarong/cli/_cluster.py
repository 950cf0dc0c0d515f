"""What the resumable jobs share (``db layers``, ``puzzle search --preset``): a Dask client
when asked for one (the ``cluster`` extra), and their faults and Ctrl-C as one line that says
where the finished work is kept."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from huarong.cli._common import INTERRUPTED_EXIT, InputError, MachineFault

CLUSTER_EXTRA = "huarong[cluster]"


def need_dask(*options: str) -> None:
    """:class:`InputError` naming ``options`` when Dask is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError(f"{' and '.join(options)} need{'s' if len(options) == 1 else ''} "
                         f"Dask: pip install '{CLUSTER_EXTRA}'") from None


@contextlib.contextmanager
def dask_client(dask_workers: int | None, address: str | None) -> Iterator[Any]:
    """A ``distributed.Client``: a local cluster of ``dask_workers`` Dask workers (a process
    each), or the scheduler at ``address``; None when neither is asked for."""
    if dask_workers is None and address is None:
        yield None
        return
    need_dask("--workers", "--cluster")
    from distributed import Client, LocalCluster

    from huarong.workers import connect

    if address is not None:
        with connect(address) as client:
            yield client
        return
    with LocalCluster(n_workers=dask_workers, threads_per_worker=1,  # type: ignore[no-untyped-call]
                      processes=True,
                      dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:  # type: ignore[no-untyped-call]
        yield client


@contextlib.contextmanager
def resumable(kept: Path, finished: str) -> Iterator[None]:
    """A job whose ``finished`` work (like "finished pieces") is kept in ``kept``: an
    unreachable Dask scheduler is bad input (exit 2); workers dying on a task a machine
    fault (exit 1); Ctrl-C exits 130; each one line that says how to resume."""
    from huarong.workers import ClusterLost, SchedulerUnreachable

    try:
        yield
    except SchedulerUnreachable as error:
        raise InputError(str(error)) from None
    except ClusterLost as error:
        raise MachineFault(f"{error}; {finished} are kept in {kept}: run the same command "
                           "again to resume") from None
    except KeyboardInterrupt:
        click.echo(f"interrupted: {finished} are kept in {kept}; run the same command again "
                   "to resume", err=True)
        sys.exit(INTERRUPTED_EXIT)
