"""Language: English text read as clauses, times, measures and cues (no extraction, no facts).

In the order a turn is read (core/extraction/claims.py calls them so):

1. ``segments``: the text as prose, code and markup; only prose is read further.
2. ``signals``: typed cues with spans (``temporal`` and ``numeric_dates`` for times,
   ``measures`` for quantities, ``names`` for people), and who the turn addresses.
3. ``clauses``: sentences split into clauses that stand alone (``clause_ends`` trims them,
   ``fragments`` completes verbless chat, ``appositions`` finds "my wife Keiko").
4. ``assertions``: which clauses assert something (speech acts); ``tense`` dates them.
5. ``agreement``: verb agreement when a clause is rewritten in the third person.

``lexicon`` holds the closed word lists they share.
"""
