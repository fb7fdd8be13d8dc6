"""Moved to `harness.intervals`; this name stays only so that branches written against it still import."""

from harness.intervals import ALL, BLOCK_SIZE, Block, Shard, range_blocks, sample_blocks, sample_deals, shard_blocks

__all__ = ["ALL", "BLOCK_SIZE", "Block", "Shard", "range_blocks", "sample_blocks", "sample_deals", "shard_blocks"]
