"""``chainjudge chains``: count, list (streamed, with a progress line) or draw
every legal chain from a scenario's position."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from logic.errors import InputError
from logic.scenario import load_file
from queries.chains.search import (
    Chain,
    chain_tree,
    count_sentence,
    group_by_outcome,
    render_svg,
    to_dot,
)
from queries.rulings.answer import chain_search_for


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    return Progress(SpinnerColumn(), TextColumn("{task.completed} chains"), TimeElapsedColumn(),
                    console=Console(stderr=True), transient=True)


def run_command(scenario: str, *, after: str | None, max_links: int | None, limit: int | None,
                count_only: bool, json_out: bool, dot: str | None, svg: str | None, distinct_copies: bool,
                time_limit: float | None, echo: Callable[[str], None], progress: bool,
                outcomes: bool = True) -> int:
    """``chainjudge chains``: count, list (streamed) or draw every legal chain."""
    if limit is not None and limit < 1:
        raise InputError("--limit must be 1 or more", "--limit")
    sc = load_file(scenario)
    search, where = chain_search_for(sc, after=after, max_links=max_links, distinct_copies=distinct_copies,
                                     time_limit=time_limit)
    if count_only:
        res = search.count()
        if json_out:
            echo(json.dumps({"count": res.count, "empty_chain": res.empty, "position": where,
                             "stats": res.stats}, ensure_ascii=False))
        else:
            echo(f"{count_sentence(res.count, res.empty)} from {where}")
        return 0
    chains: list[Chain] = []
    started = time.perf_counter()
    bar = _progress(progress and not json_out)
    task = bar.add_task("chains", total=None) if bar is not None else None
    if bar is not None:
        bar.start()
    try:
        for c in search.chains(limit=limit, outcomes=outcomes):
            chains.append(c)
            if json_out:
                echo(json.dumps(c.as_json(), ensure_ascii=False))
            if bar is not None and task is not None:
                bar.update(task, completed=len(chains))
    finally:
        if bar is not None:
            bar.stop()
    elapsed = time.perf_counter() - started
    complete = limit is None or len(chains) < limit
    groups = group_by_outcome(chains)
    if dot is not None or svg is not None:
        g = chain_tree(chains, root_label=where)
        text = to_dot(g, title=f"{sc.path}: every legal chain")
        if dot is not None:
            with open(dot, "w", encoding="utf-8") as fh:
                fh.write(text)
        if svg is not None:
            render_svg(text, svg)
    if json_out:
        echo(json.dumps({"summary": {
            "chains": len(chains), "complete": complete, "position": where,
            "groups": [{"outcome": list(o), "chains": len(cs)} for o, cs in groups],
            "seconds": round(elapsed, 3), "stats": search.stats}}, ensure_ascii=False))
        return 0
    head = count_sentence(len(chains), any(not c.links for c in chains))
    if not complete:
        head = f"the first {len(chains)} legal chains (--limit {limit}; there may be more)"
    echo(f"{head} from {where}, in {len(groups)} outcome group(s); a chain resolves last link first")
    for outcome, cs in groups:
        echo("")
        what = "; ".join(outcome) or "nothing the timing rules look at"
        if not outcomes:
            what = "not resolved (--no-outcomes)"
        echo(f"Outcome: {what}  ({len(cs)} chain{'s' if len(cs) != 1 else ''})")
        for c in cs:
            echo(f"  {c.text()}")
    if dot is not None:
        echo(f"\nThe chain tree (DOT) is in {dot}")
    if svg is not None:
        echo(f"\nThe chain tree (SVG) is in {svg}")
    return 0
