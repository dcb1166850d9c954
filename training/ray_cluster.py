"""Connecting a run to Ray, on this machine or a cluster (``--address``), with one CPU per worker: what the
RLlib trainer (env runners) and AlphaZero's self-play actors share. Ray itself is passed in by the caller,
which imports it only when it is needed."""

from __future__ import annotations

import os

from boardgames.training.settings import SettingError


def address_host_port(address: str | None) -> tuple[str, int] | None:
    """``(host, port)`` of a ``HOST:PORT`` address (a ``scheme://`` prefix allowed); None for ``None`` (a
    local Ray) and ``auto`` (a cluster started on this machine); :class:`SettingError` for any other form."""
    if address is None or address == "auto":
        return None
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not host or not port.isdigit():
        raise SettingError(f"--address {address!r}: expected 'auto' or HOST:PORT (e.g. 10.0.0.5:6379)")
    return host, int(port)


def connect(ray, address: str | None, workers: int, what: str, keep_connection: bool = False) -> bool:
    """Connect to the cluster at ``address`` or start Ray on this machine with at least one CPU for each of
    the ``workers`` (called ``what`` in messages: "env runners", "actors"). With ``keep_connection``, a
    process already connected to Ray (a test, a notebook) keeps its connection. Whether Ray was started or
    connected here (and so is to be shut down at the end). :class:`SettingError` naming the address when it
    cannot be reached or has fewer CPUs than workers; a note when other jobs hold the CPUs they need."""
    address_host_port(address)
    owns = not (keep_connection and ray.is_initialized())
    if owns:
        try:
            if address is None:
                ray.init(
                    num_cpus=max(os.cpu_count() or 1, workers),
                    include_dashboard=False,
                    logging_level="ERROR",
                    configure_logging=True,
                )
            else:
                ray.init(address=address, logging_level="ERROR")
        except (ConnectionError, RuntimeError, TimeoutError) as e:
            raise SettingError(f"--address {address}: could not connect to a Ray cluster ({e})") from None
    cpus = ray.cluster_resources().get("CPU", 0)
    if workers > cpus:
        if owns:
            ray.shutdown()
        where = address or "local"
        raise SettingError(f"{workers} {what} need {workers} CPUs; the Ray cluster at {where} has {cpus:g}")
    free = ray.available_resources().get("CPU", 0)
    if workers > free:  # other jobs hold them: Ray waits until they are given back
        print(
            f"note: {workers} {what} need {workers} CPUs, {free:g} of the cluster's {cpus:g} are free now: "
            "the run waits for other jobs to give theirs back",
            flush=True,
        )
    return owns
