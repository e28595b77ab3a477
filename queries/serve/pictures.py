"""The chain tree of "list every legal chain" as a picture: SVG drawn by
Graphviz when it is installed, else the tree as nested items the page lists."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

from queries.chains.search import Chain, Link, chain_tree, to_dot

MAX_NODES_DRAWN = 400  # a larger tree is listed, not drawn


def chains_from_groups(groups: Sequence[Mapping[str, Any]]) -> list[Chain]:
    """The chains of an answer's ``detail.groups`` (queries/chains.py, ``Chain.as_json``)."""
    out = []
    for g in groups:
        for c in g.get("chains", []):
            links = tuple(Link(n=int(lk["link"]), player=str(lk["player"]), effect=str(lk.get("effect") or lk["card"]),
                               target=lk.get("target"), card=str(lk["card"])) for lk in c.get("links", []))
            outcome = c.get("outcome")
            out.append(Chain(links, tuple(outcome or ()), resolved=outcome is not None))
    return out


def _tree_items(g: Any, node: Any) -> list[dict[str, Any]]:
    items = []
    for child in g.successors(node):
        d = g.nodes[child]
        item: dict[str, Any] = {"label": g.edges[node, child].get("label", d.get("label", "")),
                                "children": _tree_items(g, child)}
        if d.get("complete"):
            item["outcome"] = list(d.get("outcome") or ()) if d.get("resolved", True) else None
        items.append(item)
    return items


def svg_of(dot_text: str) -> str | None:
    exe = shutil.which("dot")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "-Tsvg"], input=dot_text.encode("utf-8"), capture_output=True, timeout=20,
                             check=False)
    except (subprocess.TimeoutExpired, OSError):
        return None
    return out.stdout.decode("utf-8", "replace") if out.returncode == 0 else None


def chain_picture(chains: Sequence[Chain], root: str = "the position") -> dict[str, Any]:
    """``{"format": "svg" | "list", "svg": …, "dot": …, "tree": […]}``."""
    g = chain_tree(chains, root_label=root)
    dot_text = to_dot(g)
    svg = svg_of(dot_text) if g.number_of_nodes() <= MAX_NODES_DRAWN else None
    return {"format": "svg" if svg else "list", "svg": svg, "dot": dot_text,
            "tree": {"label": root, "empty_chain": bool(g.nodes[()].get("complete")),
                     "children": _tree_items(g, ())}}
