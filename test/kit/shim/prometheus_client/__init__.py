"""Stand-in for prometheus_client, which Debian's python3-locust does not bring.

The Onyx load-test kit imports it only to serve Locust's stats on /metrics
(prometheus_exporter.py); chatbench reads Locust's own CSV instead, so serving
nothing changes no figure. Kept in chatbench's test/ tree, never in the kit.
"""

from . import core

REGISTRY = core.REGISTRY


def start_http_server(port, addr="0.0.0.0", registry=None):  # noqa: ARG001
    return None
