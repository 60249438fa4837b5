"""The game's two-wire circuit, and the two-qubit basis-state arithmetic behind it.

States are kets ``"q1q0"`` (Qiskit order: q0 is the right digit). QNO never holds a
superposition between turns (every H is measured at once), so the gates only ever
act on basis states and plain bit flips are the whole simulation.

Circuit operations are plain dicts, in game order::

    {"op": "x", "qubit": 0, "why": "prep" | "value" | "played"}
    {"op": "cx", "control": 1, "target": 0}
    {"op": "h", "qubit": 1}
    {"op": "measure", "result": "01"}   (result None until the guess reveals it)
"""

from __future__ import annotations

from typing import Any, Iterable

Op = dict[str, Any]


def bit(state: str, qubit: int) -> int:
    return int(state[1 - qubit])


def flip(state: str, qubit: int) -> str:
    digits = list(state)
    digits[1 - qubit] = "1" if digits[1 - qubit] == "0" else "0"
    return "".join(digits)


def with_bit(state: str, qubit: int, value: int) -> str:
    return state if bit(state, qubit) == value else flip(state, qubit)


def apply_x(state: str, qubit: int) -> str:
    return flip(state, qubit)


def apply_cnot(state: str, control: int) -> str:
    """The target is the other qubit."""
    return flip(state, 1 - control) if bit(state, control) else state


def h_outcomes(state: str, qubit: int) -> tuple[str, str]:
    """The two states H on ``qubit`` then a measurement can give: reads 0, reads 1."""
    return with_bit(state, qubit, 0), with_bit(state, qubit, 1)


def superposition(state: str, qubit: int) -> str:
    """What H makes before the measurement, e.g. ``(|00>-|01>)/sqrt2``."""
    zero, one = h_outcomes(state, qubit)
    sign = "-" if bit(state, qubit) else "+"
    return f"(|{zero}>{sign}|{one}>)/sqrt2"


def changes(old: str, new: str) -> list[int]:
    """Qubits whose value differs: where X gates take ``old`` to ``new``."""
    return [q for q in (0, 1) if bit(old, q) != bit(new, q)]


def run(ops: Iterable[Op], start: str = "00") -> str:
    """The basis state the circuit leaves, reading measurements as recorded.

    A measurement result replaces the state (the circuit is not re-prepared after
    one, exactly as the original keeps it), so this is what the game's top state is.
    """
    state = start
    for op in ops:
        if op["op"] == "x":
            state = apply_x(state, op["qubit"])
        elif op["op"] == "cx":
            state = apply_cnot(state, op["control"])
        elif op["op"] == "measure" and op["result"] is not None:
            state = op["result"]
    return state


# ------------------------------------------------------------------ drawing


def columns(ops: Iterable[Op]) -> list[tuple[str, str]]:
    """One (q0 cell, q1 cell) pair per circuit column, for small screens.

    Cells are short labels: ``"X"``, ``"H"``, ``"*"`` (CNOT control), ``"+"``
    (CNOT target), ``"M0"``/``"M1"``/``"M?"`` (a measurement and its result on that
    wire), or ``""`` (wire only). Preparation X gates on both wires share a column.
    """
    out: list[tuple[str, str]] = []
    ops = list(ops)
    i = 0
    while i < len(ops):
        op = ops[i]
        kind = op["op"]
        if kind == "x":
            cells = ["", ""]
            cells[op["qubit"]] = "X"
            nxt = ops[i + 1] if i + 1 < len(ops) else None
            # Two X gates of one state change (or the preparation) stand together.
            if (nxt is not None and nxt["op"] == "x" and nxt["why"] == op["why"] != "played"
                    and nxt["qubit"] != op["qubit"]):
                cells[nxt["qubit"]] = "X"
                i += 1
            out.append((cells[0], cells[1]))
        elif kind == "cx":
            cells = ["", ""]
            cells[op["control"]] = "*"
            cells[op["target"]] = "+"
            out.append((cells[0], cells[1]))
        elif kind == "h":
            cells = ["", ""]
            cells[op["qubit"]] = "H"
            out.append((cells[0], cells[1]))
        elif kind == "measure":
            r = op["result"]
            out.append(("M?" if r is None else f"M{bit(r, 0)}",
                        "M?" if r is None else f"M{bit(r, 1)}"))
        i += 1
    return out


def text(ops: Iterable[Op]) -> str:
    """A plain-text drawing, q0 on top as Qiskit draws it."""
    cols = columns(ops)
    rows = []
    for wire in (0, 1):
        cells = "".join(f"-{c[wire]:-<2}" for c in cols)
        rows.append(f"q{wire}: -{cells}-")
    return "\n".join(rows)


def qasm(ops: Iterable[Op], title: str = "") -> str:
    """OpenQASM 2 for the whole game. Each measurement gets its own classical
    register, so every result stays distinct; results are recorded as comments."""
    ops = list(ops)
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";']
    if title:
        lines.insert(0, f"// {title}")
    lines.append("qreg q[2];")
    m = 0
    body = []
    for op in ops:
        kind = op["op"]
        if kind == "x":
            body.append(f"x q[{op['qubit']}];  // {op['why']}")
        elif kind == "cx":
            body.append(f"cx q[{op['control']}],q[{op['target']}];")
        elif kind == "h":
            body.append(f"h q[{op['qubit']}];")
        elif kind == "measure":
            m += 1
            lines.append(f"creg m{m}[2];")
            result = op["result"]
            body += ["barrier q[0],q[1];", f"measure q -> m{m};"
                     + (f"  // read |{result}>" if result is not None else "")]
    return "\n".join(lines + body) + "\n"
