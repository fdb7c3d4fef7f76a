"""Sinks that deliver: a sink into a table writes the table in the barrier's own transaction
(``into_table.py``); a sink to an external PostgreSQL (``postgres`` or ``jdbc`` with a
``jdbc:postgresql://`` URL) writes it after the barrier from a durable log (``postgres.py``);
``blackhole`` consumes.  What a sink reads and how its output changed at a barrier is
``spec.py`` and ``state.py``; ``delivery.py`` hooks them into the barriers (epochs.py).

RisingWave: ``src/stream/src/executor/sink.rs``, ``src/connector/src/sink/``.
"""
