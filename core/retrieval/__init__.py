"""Retrieval, pure part: rank fusion, projection onto facts, sufficiency.

At query time (services/memory/recall.py runs the routes): ``sufficiency`` reads the query
(who and when it names); the routes' rankings are fused and projected onto facts within a
token budget (``fusion``); ``relevance`` makes the results fit for a prompt; ``sufficiency``
says ANSWER from facts or ESCALATE.
"""
