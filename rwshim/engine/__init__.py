"""Catalog and barrier engine: RisingWave's streaming-job control plane (synchronous, clock
injected)."""
