"""SQLite meta store: the schema (``schema``), opening/creating/migrating/refusing a store and its
transactions (``store``), SQL functions for the catalog views (``functions``).  RisingWave's
recovery rules run on open through ``rwshim.engine.Engine``, which owns their semantics."""
