"""freecell-harness: compare FreeCell dealers with Microsoft's deals, exhaustively and fast."""

from harness.adapters import Dealer, DealerOptions, open_dealer
from harness.dealer_profile import profile
from harness.diagnosis import identify
from harness.errors import HarnessError, RequestError
from harness.failures import Diagnosis, Failure

__all__ = [
    "Dealer",
    "DealerOptions",
    "Diagnosis",
    "Failure",
    "HarnessError",
    "RequestError",
    "identify",
    "open_dealer",
    "profile",
]
