"""rwshim: a RisingWave look-alike that speaks the PostgreSQL wire protocol."""

__version__ = "0.1.0"
