"""freecell-harness: compare FreeCell dealers with Microsoft's deals, exhaustively and fast."""

from harness.adapters import Dealer, DealerOptions, open_dealer
from harness.errors import HarnessError, RequestError
from harness.failures import Failure

__all__ = ["Dealer", "DealerOptions", "Failure", "HarnessError", "RequestError", "open_dealer"]
