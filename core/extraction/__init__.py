"""Extraction: a turn's clauses written as atomic, provenance-checked claims.

``rules`` is the default extractor (no LLM); for one turn, ``claims.extract_turn`` runs:

1. the language wing (core/language) reads segments, signals and clauses;
2. ``claims`` writes one claim per asserting clause: ``rewrite`` makes it stand alone
   (speaker, named people, absolute dates), ``pronouns`` names what "it" is,
   ``slot_rules`` and ``relations`` key it by (subject, attribute), ``attributes`` gives an
   open (subject, attribute, value) reading, ``polarity`` what it denies, ``categories``
   the exclusive categories it names;
3. ``validation`` drops a claim with a word its evidence does not hold;
4. ``salience`` keeps a turn's few most salient claims within the budget; relations of
   appositions fill what is left.

Extraction never imports facts (an import contract): the gate reads claims, not rules.
"""
