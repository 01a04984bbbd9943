META = dict(id="b14", genre="fitness", title="marathon training", user_id="beth.c", user_name="Beth")

SCRIPT = """
@ s1 2026-05-04T06:30:00-05:00
U start: training for the Chicago Marathon on October 11. current long run 14 miles, weekly mileage 32. goal is sub 4:00. plan?
A: Build weekly mileage by about 10% at most, with a cutback week every 3-4 weeks, and grow the long run toward 20 miles by September.
U never_marathon: never run a marathon before, only halves. anything different about fueling?
A: For a marathon you'll need carbs during the run: about 30-60 g per hour from gels or chews, starting early.
U pr1: 5k PR is 24:10, does that predict sub 4?
A: A 24:10 5k predicts roughly a 3:50-4:00 marathon, assuming the endurance is there.
U hr1: resting HR 58. easy pace should be what HR?
A: Roughly zone 2, often 65-75% of max heart rate. A lab or field test would refine it.
U shoes1: running in Nike Pegasus, 400 miles on them. replace?
A: Most shoes are due around 300-500 miles. Consider a new pair before the long runs get longer.
U partner: my partner Jordan is doing the Chicago half in September, their long run is 10 miles. can we train together?
A: Yes: share warm-ups and easy runs, and split for the long runs.
U: ok
A: Want a sample week?
U week: yes
A: Sample:
  - Mon rest
  - Tue 5 easy
  - Wed 6 with strides
  - Thu 5 easy
  - Sat 14 long
  - Sun 3 recovery

@ s2 2026-06-15T07:00:00-05:00
U hr_fix: Correction: resting HR is 52 not 58, the watch was off.
A: Thanks. A lower resting HR usually means your easy zone sits a little lower too.
U mileage2: weekly mileage is up to 45 now, legs tired. normal?
A: Some fatigue is normal at a new high. Keep easy days truly easy and sleep well.
U shoes2: switched to ASICS Novablast, they feel bouncier. break-in needed?
A: Do a few short runs before a long run in them.
U coach: joined the Lakefront Striders club, coach is Dwayne, he wants tempo runs on Thursdays
A: Tempo runs build lactate threshold. Keep them controlled.
U first_2019: dwayne asked about my marathon history, told him my first marathon in 2019 was a disaster, walked from mile 20. should i mention that to him more?
A: Yes, it helps him plan your fueling and pacing so the same thing doesn't happen.
U: ok
A: Good week!

@ s3 2026-08-10T06:45:00-05:00
U long2: long run 18 miles done yesterday, felt strong until 16. fueling issue?
A: Possibly. Try taking gels every 35-40 minutes from the start.
U pr2: also new 5k PR at the club time trial, 22:47!! 
A: Huge improvement. That suggests a sub-3:50 is realistic.
U goal2: dwayne says go for 3:45 instead of sub 4. scary
A: It's a stretch goal; you can start at 3:45 pace and adjust on the day.
U jordan: jordan ran 12 miles last week for the half, the furthest they've ever gone
A: Great milestone for Jordan.
U injury: left shin sore after track. rest or run through?
A: Rest a few days; if it hurts to hop on that leg, see a doctor to rule out a stress fracture.
U: resting
A: Smart.

@ s4 2026-10-13T18:00:00-05:00
U race: finished chicago in 3:52:18!! missed 3:45 but sub 4!!
A: Congratulations! A sub-4 marathon is a fantastic result.
U recovery: how long before running again?
A: Take at least a week easy; many runners do reverse taper over 2-3 weeks.
U jordan_half: jordan ran the half in 1:58 last month, we're both done
A: What a year for both of you.
U next: next year boston qualifier? i'm 34
A: For women 18-34 the Boston standard is around 3:30; that's ambitious but you've already improved a lot.
U last: thanks coach bot
A: Anytime!
"""

GOLD = {
    "updates": [
        dict(attr="long run distance", holder="Beth", orig="start", orig_value="14 miles", upd="long2",
             upd_value="18 miles", q="How long is Beth's longest long run?", cls="value-in-question"),
        dict(attr="weekly mileage", holder="Beth", orig="start", orig_value="32", upd="mileage2", upd_value="45",
             q="What is Beth's weekly mileage?", cls="count"),
        dict(attr="5k PR", holder="Beth", orig="pr1", orig_value="24:10", upd="pr2", upd_value="22:47",
             q="What is Beth's 5k personal record?", cls="value-in-question"),
        dict(attr="resting heart rate", holder="Beth", orig="hr1", orig_value="58", upd="hr_fix", upd_value="52",
             q="What is Beth's resting heart rate?", cls="correction"),
        dict(attr="running shoes", holder="Beth", orig="shoes1", orig_value="Pegasus", upd="shoes2", upd_value="Novablast",
             q="What shoes does Beth run in?", cls="paraphrased-attribute"),
        dict(attr="marathon goal time", holder="Beth", orig="start", orig_value="sub 4:00", upd="goal2", upd_value="3:45",
             q="What is Beth's marathon goal time?", cls="implicit-attribute"),
        dict(attr="Jordan's long run", holder="Jordan", orig="partner", orig_value="10 miles", upd="jordan",
             upd_value="12 miles", q="How far is Jordan's longest run?", cls="relative-attribute-change"),
    ],
    "contradictions": [
        dict(a="never_marathon", b="first_2019", holder="Beth", matter="has run a marathon before",
             q="Has Beth run a marathon before?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="start", holder="Beth", q="When is the Chicago Marathon?", terms=["October 11"], cls="fact-in-question"),
        dict(t="partner", holder="Jordan", holder_terms=["Jordan"], other=True, q="Which race is Jordan doing?",
             terms=["half"], cls="relative"),
        dict(t="coach", holder="Dwayne", holder_terms=["Dwayne"], other=True, q="Who is Beth's running coach?",
             terms=["Dwayne"], cls="other-person"),
        dict(t="coach", holder="Beth", q="Which running club did Beth join?", terms=["Lakefront Striders"], cls="own-attribute"),
        dict(t="race", holder="Beth", q="What was Beth's marathon finish time?", terms=["3:52:18"], cls="number"),
        dict(t="jordan_half", holder="Jordan", holder_terms=["Jordan"], other=True, q="What was Jordan's half marathon time?",
             terms=["1:58"], cls="relative"),
        dict(t="next", holder="Beth", q="How old is Beth?", terms=["34"], cls="fact-in-question"),
        dict(t="injury", holder="Beth", q="Which of Beth's shins was sore?", terms=["left"], cls="own-attribute"),
        dict(t="shoes1", holder="Beth", q="How many miles were on Beth's Pegasus shoes?", terms=["400"], cls="fact-in-question"),
    ],
    "unanswerable": [
        dict(q="What is Beth's marathon time from 2019?", cls="near-miss"),
        dict(q="What is Jordan's 5k personal record?", cls="wrong-person"),
        dict(q="How much does the running club cost?", cls="absent-attribute"),
    ],
    "non_conflicts": [
        dict(a="start", b="partner", matter="Beth's long run vs Jordan's long run"),
        dict(a="race", b="jordan_half", matter="Beth's marathon time vs Jordan's half time"),
    ],
}
