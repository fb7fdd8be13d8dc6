"""Running JavaScript dealers under Node: the driver (driver.js, prelude.js, assert.js,
builtins.js), its typed protocol, the Python bridge to it, and the gathering of a dealer's
source files (sources.py; TypeScript made JavaScript by typescript.py)."""

from harness.node.bridge import DriverDied, NodeBridge
from harness.node.protocol import PROTOCOL_VERSION, DriverRefused, LoadAnswer, LoadRequest, ProtocolError
from harness.node.sources import DealerSpec, gather, parse_node_arg, script_request

__all__ = [
    "PROTOCOL_VERSION",
    "DealerSpec",
    "DriverDied",
    "DriverRefused",
    "LoadAnswer",
    "LoadRequest",
    "NodeBridge",
    "ProtocolError",
    "gather",
    "parse_node_arg",
    "script_request",
]
