"""Facts: the write gate, a scope's memory, contradictions and corrections.

For each claim of a turn (core/stages.py ``derive_fact_changes``), ``gate.decide`` asks in
this order:

1. a claim that needs review is held (REVIEW); a value said to have ended closes its fact;
2. the current value of the same attribute (``attribute_match``, ``attribute_similarity``:
   a slot, an open reading, a paraphrased change) is superseded (UPDATE);
3. an exclusive rival (one of a category at a time) is superseded;
4. otherwise novelty against the scope's facts (``memory_state``): ``contradictions`` links
   a denial or a conflicting value, a near duplicate corroborates (NOOP), a novel claim
   is added (ADD), the uncertain band goes to an optional merge advisor.

``old_values`` then acts on every fact that still states a replaced value; ``corrections``
turns a correction or review turn into fact changes; ``calibration`` fits the gate's
thresholds.
"""
