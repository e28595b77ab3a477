"""Answering a question: the answer (answer), why not and the windows
(explain), unmodelled parts (relevance), corpora of ruling cases (cases)."""
