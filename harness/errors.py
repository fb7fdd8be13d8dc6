"""The one exception that means "the request itself is wrong or cannot be served" (exit status 2)."""


class RequestError(Exception):
    """A bad deal number or range, an unreadable file, a missing tool: one line, exit 2."""
