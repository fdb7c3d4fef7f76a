"""A sqllogictest runner for RisingWave's own e2e test files (GitHub issue 12).

The files are read at run time from a RisingWave checkout or bare mirror, never committed here.
``slt`` parses them with sqllogictest-rs 0.29.1's rules (the version RisingWave pins), ``judge``
compares outputs as its default validator does, ``executor`` runs one file over psycopg's
simple-query path, ``report`` tabulates and compares runs, ``run`` is the command line.
"""
