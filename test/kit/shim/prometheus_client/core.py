"""The names the kit's prometheus_collector.py imports; nothing is exported."""


class _Registry:
    def register(self, collector):  # noqa: ARG002
        return None


REGISTRY = _Registry()


class _Family:
    def __init__(self, name, documentation, labels=None, **_kwargs):
        self.name = name
        self.documentation = documentation
        self.labels = labels or []
        self.samples = []

    def add_metric(self, labels, value, **_kwargs):
        self.samples.append((labels, value))


class CounterMetricFamily(_Family):
    pass


class GaugeMetricFamily(_Family):
    pass
