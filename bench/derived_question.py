"""Time: load the full card list with derived attributes, then answer one question.

    python bench/derived_question.py [CARDS.jsonl] [--cold]

The question is about a card outside the bundled library (Breakthrough Skill),
whose attributes come from the card-text reader (logic/textreader.py); the
scenario defines it inline from the derived attributes.  ``--cold`` ignores
the derivation cache (the first run on a machine, or after the reader changes).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

T0 = time.perf_counter()

from logic import carddata  # noqa: E402
from logic.textreader import DerivedCard, load_derived  # noqa: E402


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    path = Path(args[0]) if args else carddata.default_path()
    if path is None:
        print("card list not found: give its path or set CHAINJUDGE_CARDS", file=sys.stderr)
        return 2
    t_import = time.perf_counter() - T0
    t1 = time.perf_counter()
    lib = load_derived(path, use_cache="--cold" not in argv)
    t_load = time.perf_counter() - t1
    dc = lib.get("Breakthrough Skill")
    assert isinstance(dc, DerivedCard) and dc.status == "classified", dc
    t2 = time.perf_counter()
    from logic.scenario import from_data
    from queries.rulings.answer import Asker

    scenario = {
        "game": "ygo",
        "players": ["A", "B"],
        "turn_player": "A",
        "phase": "battle.start",
        "cards": [
            {"card": "Judgment Dragon", "controller": "A", "zone": "monster", "position": "face_up_attack"},
            {"card": "Breakthrough Skill", "controller": "B", "zone": "spell_trap", "position": "face_down"},
        ],
        "custom_cards": [DerivedCard.to_json(dc)["card"]],
    }
    sc = from_data(scenario, "bench")
    ans = Asker(sc).ask("can B activate Breakthrough Skill targeting Judgment Dragon now")
    t_ask = time.perf_counter() - t2
    total = time.perf_counter() - T0
    print(f"cards: {len(lib)} ({lib.source})")
    print(f"answer: {ans.verdict}")
    print(f"imports {t_import:.2f}s, load+derive {t_load:.2f}s, question {t_ask:.2f}s, total {total:.2f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
