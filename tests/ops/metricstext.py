"""Reading a Prometheus text exposition in tests."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """{(sample name, labels): value} of every sample of the exposition."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return out


def value(text: str, name: str, **labels: str) -> float:
    """The sample `name` with exactly `labels`; 0 when it is absent."""
    return samples(text).get((name, frozenset(labels.items())), 0.0)
