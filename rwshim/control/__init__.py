"""Test control in one place: the ``RWSHIM ...`` statements and the actions behind them
(``statements``: barriers, the clock, held backfill, faults, restart, the jobs table), which
the pytest plugin (``rwshim.testing``) and the dashboard call too, and ``rwshim ctl``
(``ctl``), a client that sends them to a running server.  RisingWave's counterpart is risectl
(``src/ctl``); every statement is an rwshim extension, listed in the README."""
