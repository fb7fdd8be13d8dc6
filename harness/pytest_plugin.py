"""pytest plugin: conformance options and fixtures (filled in by the engine issue)."""
