"""The Node side of the `node:` adapter."""
