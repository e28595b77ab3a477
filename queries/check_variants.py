"""Equivalence of variants (stub)."""
def compare(checker, search):
    return None
def to_text(eq):
    return []
