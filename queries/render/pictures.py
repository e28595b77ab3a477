"""Pictures of answers: the witness timeline, and the turn with the windows
where the asked effect can be activated (networkx graphs, drawn by Graphviz)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import networkx as nx

from logic.errors import InputError
from logic.games import turn
from queries.rulings.answer import Answer

INSTALL_HINT = ("Graphviz's 'dot' program is needed to draw pictures: install it "
                "(Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; "
                "Windows: winget install graphviz) or use --dot FILE and render the file elsewhere")


def timeline_graph(rows: list[dict[str, Any]], title: str = "") -> nx.DiGraph:
    """One node per decision point of the timeline, one edge per event."""
    g = nx.DiGraph(title=title)
    for i, row in enumerate(rows):
        label = f"{row.get('point', '')}"
        if row.get("box") and row["box"] != "-":
            label += f" · box {row['box']}"
        label += f"\\n{row.get('priority', '')} to act"
        g.add_node(f"s{i}", label=label, shape="box", style="rounded")
        chain = row.get("chain") or []
        after = f"s{i + 1}"
        after_label = ("chain: " + " ← ".join(chain)) if chain else "chain empty"
        g.add_node(after, label=after_label, shape="box", style="rounded")
        g.add_edge(f"s{i}", after, label=row.get("event", ""))
    return g


def turn_graph(game: str, windows: list[dict[str, str]] | None = None, asked: str = "") -> nx.DiGraph:
    """The turn's points; those where the asked effect can be activated are highlighted."""
    t = turn(game)
    g = nx.DiGraph(title=asked)
    marks: dict[str, list[str]] = {}
    for w in windows or []:
        marks.setdefault(w["point"], []).append(w.get("box", ""))
    for key in t.graph.nodes:
        name = t.public_name(key)
        label = name
        attrs: dict[str, Any] = {"shape": "ellipse"}
        if name in marks:
            boxes = ", ".join(b for b in marks[name] if b)
            label += f"\\n(can activate{': box ' + boxes if boxes else ''})"
            attrs.update(style="filled", fillcolor="palegreen")
        g.add_node(key, label=label, **attrs)
    for a, b in t.graph.edges:
        g.add_edge(a, b)
    for a, b, label in ACTION_EDGES.get(game, ()):
        g.add_edge(a, b, label=label, style="dashed")
    return g


# moves made by a player's action rather than by the game (drawn dashed)
ACTION_EDGES = {"ygo": (("bp_battle", "bp_attack", "attack declared"),)}


def _q(s: Any) -> str:
    return '"' + str(s).replace('"', '\\"') + '"'


def _body(g: nx.DiGraph, prefix: str = "", indent: str = "  ") -> list[str]:
    lines = []
    if g.graph.get("title"):
        lines.append(f"{indent}label={_q(g.graph['title'])}; labelloc=t;")
    for n, attrs in g.nodes(data=True):
        a = ", ".join(f"{k}={_q(v)}" for k, v in attrs.items())
        lines.append(f"{indent}{_q(prefix + str(n))} [{a}];")
    for u, v, attrs in g.edges(data=True):
        a = ", ".join(f"{k}={_q(v2)}" for k, v2 in attrs.items())
        lines.append(f"{indent}{_q(prefix + str(u))} -> {_q(prefix + str(v))}" + (f" [{a}]" if a else "") + ";")
    return lines


def to_dot(g: nx.DiGraph) -> str:
    head = ["digraph chainjudge {", '  node [fontname="Helvetica"];', '  edge [fontname="Helvetica"];']
    return "\n".join(head + _body(g) + ["}"]) + "\n"


def answer_graphs(ans: Answer, game: str) -> list[nx.DiGraph]:
    graphs = []
    if ans.witness:
        graphs.append(timeline_graph(ans.witness, "witness: " + ans.question))
    if ans.other_witness:
        graphs.append(timeline_graph(ans.other_witness, "the other side"))
    cf = ans.detail.get("counterfactual")
    if cf and cf.get("timeline"):
        graphs.append(timeline_graph(cf["timeline"], "if " + " and ".join(cf["lifted"]) + " did not apply"))
    wins = ans.answer if ans.kind == "when_can" and isinstance(ans.answer, list) else None
    if wins is None and ans.latest_chance:
        wins = [ans.latest_chance]
    graphs.append(turn_graph(game, wins, "the turn"))
    return graphs


def answer_dot(ans: Answer, game: str) -> str:
    """All pictures of an answer as one DOT file, one cluster each."""
    lines = ["digraph chainjudge {", '  node [fontname="Helvetica"];', '  edge [fontname="Helvetica"];']
    for i, g in enumerate(answer_graphs(ans, game)):
        lines.append(f"  subgraph cluster_{i} {{")
        lines += _body(g, prefix=f"g{i}_", indent="    ")
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(dot_text: str, path: Path) -> None:
    exe = shutil.which("dot")
    if exe is None:
        raise InputError(INSTALL_HINT, "--svg")
    try:
        out = subprocess.run([exe, "-Tsvg"], input=dot_text.encode(), capture_output=True, timeout=30, check=False)
    except subprocess.TimeoutExpired:
        raise InputError("Graphviz took too long to draw the picture", "--svg") from None
    if out.returncode != 0:
        raise InputError(f"Graphviz could not draw the picture: {out.stderr.decode(errors='replace')[:200]}", "--svg")
    path.write_bytes(out.stdout)
