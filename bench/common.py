"""Shared bits for benchmarks: machine description and medians. Benchmarks print
figures and never fail on timing; they exit non-zero only when something crashes."""

from __future__ import annotations

import platform
import statistics
import sys


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
    except OSError:
        fields = {}
    fields = {k.strip().lower(): v.strip() for k, v in fields.items()}
    for key in ("model name", "model", "hardware"):  # x86, Raspberry Pi, other ARM
        if fields.get(key):
            return fields[key]
    return platform.processor() or platform.machine()


def machine() -> str:
    return f"{cpu_model()}; Python {sys.version.split()[0]} ({platform.python_implementation()})"


def median(values: list[float]) -> float:
    return statistics.median(values)
