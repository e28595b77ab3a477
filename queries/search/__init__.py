"""The search: positions, replays and incremental searches over the encodings
(engine), question facts (compile), positions and steps in words (describe)."""
