META = dict(id="b15", genre="home-renovation", title="a kitchen renovation", user_id="wes.park", user_name="Wes")

SCRIPT = """
@ s1 2025-03-02T15:00:00-08:00
S: You are a home renovation assistant. Help homeowners plan projects, compare quotes and understand permits. Recommend licensed professionals for electrical, plumbing and structural work.
U size1: redoing the kitchen in our 1950s house in Seattle. kitchen is 12 by 16 feet. what's a realistic budget for a mid-range remodel?
A: For a mid-range remodel of that size in Seattle, $35,000-60,000 is common, depending on cabinets and layout changes.
U quote1: first quote from Hammer & Co is $18,500 for cabinets install, counters and tile, not including appliances. suspiciously low?
A: It's low for Seattle. Check what's excluded: demolition, permits, electrical, drywall repair.
U no_gas: house has no gas line so we're going induction anyway, which induction range?
A: Look at 30-inch induction ranges from Bosch, GE Café or Samsung; check your panel has a 40-50 amp circuit available.
U bil: my brother-in-law Kevin is an electrician in Tacoma, he offered to do the wiring, is that allowed with a permit?
A: In Washington, electrical work must be done by a licensed electrician or the homeowner with a permit. Kevin can do it if he's licensed and pulls the permit.
U tile1: tamsin (my wife) wants white subway tile for the backsplash, i find it boring
A: Subway tile can be dressed up with a vertical or herringbone layout, or a coloured grout.
U cabinets1: cabinets lead time is 6 weeks from Kitchen Craft. ok to order now?
A: Order once measurements are final; a change after ordering is expensive.
U: ok
A: Want a project checklist?
U checklist: yes
A: Checklist:
  - final layout and measurements
  - permits
  - cabinet order
  - electrical rough-in
  - inspection
  - counters template
  - backsplash

@ s2 2025-03-20T19:30:00-07:00
U size_fix: Correction: the kitchen is 12 by 14 feet, not 12 by 16, I measured the dining nook by mistake.
A: Thanks, 12 by 14. Update the cabinet drawings before ordering.
U quote2: hammer & co revised the quote to $21,200 after seeing the subfloor damage. still worth it?
A: A subfloor repair is a real cost. Compare with a second quote before deciding.
U contractor2: got a second quote from Reyes Renovations at $22,900 but they're licensed and bonded, and Hammer isn't. we're going with Reyes.
A: Licensed and bonded is worth the difference for a job this size.
U permit1: permit application deadline for the spring slot is April 15, Reyes is handling it
A: Good. Ask for a copy of the permit once it's issued.
U tile2: we compromised, green zellige tile instead of subway. is zellige hard to install?
A: It's irregular by design, so installers need experience; expect more grout and a slightly higher labor cost.
U: tamsin loves it
A: Then it's the right choice.

@ s3 2025-05-10T12:00:00-07:00
U cabinets2: Kitchen Craft says cabinets are now 10 weeks out because of a supply issue, does that push everything?
A: Yes, most steps after cabinets will slide. Ask Reyes whether they can do electrical and drywall first.
U gas_line: since the old gas line is already there behind the wall we're keeping a gas cooktop after all, tamsin cooks a lot
A: If you keep gas, get the line inspected and add good ventilation: a ducted hood vented outside.
U kevin_move: Kevin moved to Spokane for a new job so he can't do the wiring, Reyes's electrician will
A: That's simpler for the permit anyway.
U counters: counters will be quartz, $4,200 for the whole kitchen. fair?
A: That's reasonable for a kitchen this size.
U budget_total: total so far: Reyes $22,900, quartz $4,200, cabinets $9,800, appliances $6,500. are we over?
A: That's $43,400, within the mid-range estimate for Seattle.
U: phew
A: On track.

@ s4 2025-07-28T18:00:00-07:00
U inspection: electrical rough-in passed inspection on July 22
A: Great milestone.
U done: cabinets finally arrived and went in, counters templated for August 6
A: Nearly there!
U dog: our dog keeps eating drywall dust, safe?
A: Drywall dust can upset the stomach; keep the dog out of the work area and call the vet if vomiting continues.
U last: thanks for the help
A: Enjoy the new kitchen!
"""

GOLD = {
    "updates": [
        dict(attr="kitchen size", holder="Wes", orig="size1", orig_value="12 by 16", upd="size_fix", upd_value="12 by 14",
             q="How big is Wes's kitchen?", cls="correction"),
        dict(attr="contractor", holder="Wes", orig="quote1", orig_value="Hammer & Co", upd="contractor2",
             upd_value="Reyes", q="Which contractor is doing Wes's kitchen?", cls="name-change"),
        dict(attr="Hammer & Co quote", holder="Wes", orig="quote1", orig_value="$18,500", upd="quote2",
             upd_value="$21,200", q="How much is the Hammer & Co quote?", cls="money"),
        dict(attr="backsplash tile", holder="Wes", orig="tile1", orig_value="subway", upd="tile2", upd_value="zellige",
             q="What tile is going on the backsplash?", cls="paraphrased-attribute"),
        dict(attr="cabinet lead time", holder="Wes", orig="cabinets1", orig_value="6 weeks", upd="cabinets2",
             upd_value="10 weeks", q="What is the cabinet lead time?", cls="value-in-question"),
        dict(attr="Kevin's city", holder="Kevin", orig="bil", orig_value="Tacoma", upd="kevin_move", upd_value="Spokane",
             q="Where does Wes's brother-in-law Kevin live?", cls="relative-home-change"),
        dict(attr="cooktop type", holder="Wes", orig="no_gas", orig_value="induction", upd="gas_line",
             upd_value="gas cooktop", q="What kind of cooktop is Wes getting?", cls="implicit-attribute"),
    ],
    "contradictions": [
        dict(a="no_gas", b="gas_line", holder="Wes", matter="house has a gas line",
             q="Does Wes's house have a gas line?", cls="negation-vs-possession"),
    ],
    "facts": [
        dict(t="size1", holder="Wes", q="Which city is Wes's house in?", terms=["Seattle"], cls="own-attribute"),
        dict(t="size1", holder="Wes", q="When was Wes's house built?", terms=["1950s"], cls="fact-in-question"),
        dict(t="bil", holder="Kevin", holder_terms=["Kevin"], other=True, q="What is Kevin's job?", terms=["electrician"],
             cls="relative"),
        dict(t="tile1", holder="Tamsin", holder_terms=["Tamsin"], other=True, q="What is the name of Wes's wife?",
             terms=["tamsin"], cls="relative"),
        dict(t="cabinets1", holder="Wes", q="Who is making the cabinets?", terms=["Kitchen Craft"], cls="fact-in-question"),
        dict(t="permit1", holder="Wes", q="When is the permit application deadline?", terms=["April 15"], cls="date"),
        dict(t="counters", holder="Wes", q="What are the counters made of?", terms=["quartz"], cls="own-attribute"),
        dict(t="budget_total", holder="Wes", q="How much do the appliances cost?", terms=["6,500"], cls="list-item"),
        dict(t="inspection", holder="Wes", q="When did the electrical rough-in pass inspection?", terms=["July 22"], cls="date"),
        dict(t="contractor2", holder="Reyes Renovations", holder_terms=["Reyes"], other=True,
             q="How much did Reyes Renovations quote?", terms=["22,900"], cls="other-person"),
    ],
    "unanswerable": [
        dict(q="What brand is the range hood?", cls="absent-attribute"),
        dict(q="Where does Tamsin's brother live?", cls="wrong-person"),
        dict(q="What is the name of Wes's dog?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="quote2", b="contractor2", matter="Hammer quote vs Reyes quote"),
        dict(a="counters", b="budget_total", matter="counter price vs total budget list"),
    ],
}
