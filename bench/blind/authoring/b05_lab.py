META = dict(id="b05", genre="research-lab", title="a research-lab notebook", user_id="twierzbicki", user_name="Tomasz")

SCRIPT = """
@ s1 2025-11-03T09:05:00+00:00
S: You are a lab notebook assistant for a cell biology PhD student. Keep notes accurate, ask for missing details, and help with protocols and planning. Do not invent data.
U: Notebook, Monday. Starting a new page for the migration project.
A: Ready. What's first?
U cells1: HeLa-GFP thawed last week, now at P12, split 1:6 this morning. Is P12 too high to start the scratch assays?
A: P12 is fine for most assays; many labs stop using HeLa lines around P25-30. Note the passage on every plate.
U kenji: For the record Kenji (bench next to mine) runs HEK293 at P30 for his transfections, don't mix up our flasks in the shared incubator again.
A: Noted: your HeLa-GFP vs Kenji's HEK293. Label flasks with initials and passage.
U ab1: Anti-vinculin primary at 1:500 in 5% BSA overnight at 4 C, secondary 1:5000. Does 1:500 sound high for vinculin?
A: 1:500 is within the datasheet range for many vinculin antibodies. Titrate if background is high.
U n1: Plan for the drug screen: n=24 wells per condition, three conditions. Enough for a t-test?
A: With n=24 per group you have good power for moderate effects. Consider ANOVA with three conditions.
U pi1: Prof. Ramsay wants a figure draft by Friday, she is my PI, she's strict about colour-blind palettes.
A: Use viridis or a blue/orange palette. Want a checklist for the figure?
U: Yes please
A: Checklist:
  - colour-blind safe palette
  - n stated in legend
  - scale bars on images
  - statistics test named
U never_western: I've never run a western blot myself, Kenji always did them, can you give me a simple protocol?
A: Sure. Lysis in RIPA, BCA assay, 20 ug per lane, transfer to PVDF, block 1 h in 5% milk, primary overnight, secondary 1 h, ECL. I can detail each step.
U: later, thanks

@ s2 2025-11-12T16:40:00+00:00
U ab_fix: Correction: the vinculin primary is at 1:1000, not 1:500. I misread the tube label.
A: Corrected to 1:1000.
U qpcr1: qPCR primer efficiency for the MMP2 pair came out at 92%, is that acceptable?
A: 90-110% is generally acceptable; 92% is fine, though near the lower end.
U freezer: Stocks of the siRNA are in the -80, freezer 3, rack B, box 7. I keep losing track.
A: Logged: freezer 3, rack B, box 7.
U abstract1: The abstract for the EMBO migration workshop in Lisbon is due 1 February, word limit 250. Should I wait for the screen results?
A: You can submit with preliminary data. Write the abstract now and update the numbers before the deadline.
U kenji_ab: Kenji uses his vinculin at 1:2000 on HEK cells which is why we argued, his background looks cleaner
A: Cell type and fixation affect the optimal dilution. It's fine for your conditions to differ.
U chapter1: Thesis chapter 2 is about 60% written, mostly methods. Too slow for second year?
A: Methods-heavy at this stage is normal. Results sections move quickly once figures exist.
U plate_none: we don't have a plate reader in our lab, I walk to the fourth floor to use theirs, which is annoying with 96-well plates
A: Book blocks of time so plates don't sit. Sealing plates for the walk helps.
U: ok
A: Anything else for today's page?
U western1: Yes. My western from Tuesday came out blotchy, the vinculin band is there but the background is patchy. Causes?
A: Patchy background is often uneven blocking, air bubbles in transfer, or the membrane drying out. Check the transfer sandwich.

@ s3 2025-12-01T10:15:00+00:00
U cells2: HeLa-GFP now at P18, still looking healthy, morphology fine. Should I freeze down a backup stock?
A: Yes, freeze a few vials at this passage so you can restart from a low passage later.
U n2: Ramsay wants more power so the screen is now n=36 per condition. Does that change the plate layout?
A: With 36 wells per condition across three conditions you need 108 wells: two 96-well plates, with edge wells as blanks.
U qpcr2: after redesigning the MMP2 primers we're at 98% efficiency, which set do I keep in the notebook?
A: Keep both with their dates, mark the new pair as current.
U lab_move1: The lab is moving from King's Buildings room 2.14 to the new Usher building in January, how do I plan a move with live cultures?
A: Freeze stocks beforehand, keep only essential lines running, and book an incubator in the new space before the move day.
U brother: My brother Pawel is a vet in Krakow and he laughed that I cry over cells. Any tips for explaining my project at Christmas dinner?
A: Try one sentence: "I study how cancer cells crawl, so we can stop them spreading."
U: lol perfect
A: Good luck at dinner!
U funding: my Wellcome studentship ends in September 2027, so thesis submission has to be before that, right?
A: Usually yes; check your graduate school's rules on submission after funding ends.

@ s4 2026-01-14T11:30:00+00:00
U lab_move2: Moved! We're in the Usher building now, room 4.02, incubators are running and the cells survived. How long before I trust the new incubator?
A: Check CO2 and temperature logs for a week, and run a mycoplasma test on your lines after the move.
U pi2: Big change: Ramsay is leaving for Glasgow in March, and my new supervisor is Dr. Okonjo. Does my thesis committee have to change?
A: Usually the committee is updated formally. Ramsay may stay as an external co-supervisor; ask the graduate office.
U abstract2: The Lisbon workshop extended the abstract deadline to 15 February, so I can include the n=36 screen. Should I?
A: Yes. Stronger data with the larger n is worth the wait.
U plate_broke: our plate reader broke this morning and the service engineer can't come until next week, can I read the MTT assay tomorrow instead?
A: MTT formazan is usually read the same day after solubilisation. If you must wait, store the plate dark at 4 C, but expect some drift.
U myco: Mycoplasma test came back negative for both lines.
A: Great. Note the date and kit lot.
U chapter2: chapter 2 is basically done, 95%, just the figure legends
A: Excellent progress since November.
U: Ta
A: Anytime.

@ s5 2026-02-20T15:00:00+00:00
U okonjo: Dr. Okonjo suggested a live-imaging experiment, 24 h time-lapse every 10 min. Storage estimate per run?
A: At 145 frames per position with 20 positions and two channels, expect around 30-60 GB per run depending on resolution.
U kenji_leave: Kenji is leaving the lab for a postdoc in Basel in April, so who will run westerns? Me I guess.
A: Ask Kenji to walk you through his protocol before he leaves, and write it into the notebook.
U results: Screen result: drug B reduced migration by 41% vs control, p < 0.001 with n=36. How should I phrase that?
A: "Drug B reduced wound closure by 41% relative to vehicle control (n = 36 wells per condition; one-way ANOVA, p < 0.001)."
U submitted: Abstract submitted to Lisbon on 14 February, one day early.
A: Well done. Note the submission ID.
U poster: if it's accepted I'll need a poster, A0 portrait, do you have a layout suggestion?
A: Three columns: question and approach, key results with the big figure central, and a short conclusion with a QR code.
U microscope: booked the Zeiss spinning disk for 3 March, 9 to 5, the facility manager Ines says I need the induction first. What does the induction usually cover?
A: Usually start-up and shut-down order, the environmental chamber, objective care, and data transfer rules.
U mice_no: Okonjo asked if we'd validate in mice but we have no animal licence in this group, is there an in vitro alternative she might accept?
A: 3D spheroid invasion assays or organotypic cultures are common in vitro alternatives.
U conf_budget: the graduate school gives me £600 for conference travel, Lisbon flights are about £180 return, enough for the hotel too?
A: Likely, for three or four nights in a modest hotel, if you book early.
U last: Closing this notebook page. Thanks.
A: Page closed.
"""

GOLD = {
    "updates": [
        dict(attr="HeLa-GFP passage", holder="Tomasz", orig="cells1", orig_value="P12", upd="cells2", upd_value="P18",
             q="What passage are Tomasz's HeLa-GFP cells at?", cls="count"),
        dict(attr="vinculin primary dilution", holder="Tomasz", orig="ab1", orig_value="1:500", upd="ab_fix",
             upd_value="1:1000", q="What dilution does Tomasz use for the vinculin primary antibody?", cls="correction"),
        dict(attr="wells per condition", holder="Tomasz", orig="n1", orig_value="n=24", upd="n2", upd_value="n=36",
             q="How many wells per condition are in Tomasz's drug screen?", cls="count"),
        dict(attr="qPCR efficiency", holder="Tomasz", orig="qpcr1", orig_value="92%", upd="qpcr2", upd_value="98%",
             q="What is the efficiency of Tomasz's MMP2 qPCR primers?", cls="implicit-attribute"),
        dict(attr="abstract deadline", holder="Tomasz", orig="abstract1", orig_value="1 February", upd="abstract2",
             upd_value="15 February", q="When is the Lisbon workshop abstract deadline?", cls="deadline"),
        dict(attr="lab location", holder="Tomasz", orig="lab_move1", orig_value="2.14", upd="lab_move2",
             upd_value="4.02", q="Which room is Tomasz's lab in?", cls="home-change"),
        dict(attr="supervisor", holder="Tomasz", orig="pi1", orig_value="Ramsay", upd="pi2", upd_value="Okonjo",
             q="Who is Tomasz's supervisor?", cls="name-change"),
        dict(attr="thesis chapter 2 progress", holder="Tomasz", orig="chapter1", orig_value="60%", upd="chapter2",
             upd_value="95%", q="How much of thesis chapter 2 has Tomasz written?", cls="implicit-attribute"),
    ],
    "contradictions": [
        dict(a="never_western", b="western1", holder="Tomasz", matter="has run a western blot",
             q="Has Tomasz run a western blot himself?", cls="never-vs-past-event"),
        dict(a="plate_none", b="plate_broke", holder="Tomasz", matter="lab has its own plate reader",
             q="Does Tomasz's lab have a plate reader?", cls="negation-vs-possession"),
    ],
    "facts": [
        dict(t="kenji", holder="Kenji", holder_terms=["Kenji"], other=True, q="Which cell line does Kenji use?",
             terms=["HEK293"], cls="other-person"),
        dict(t="kenji_ab", holder="Kenji", holder_terms=["Kenji"], other=True,
             q="What dilution does Kenji use for vinculin?", terms=["1:2000"], cls="other-person"),
        dict(t="freezer", holder="Tomasz", q="Where are the siRNA stocks stored?", terms=["freezer 3", "box 7"], cls="own-attribute"),
        dict(t="abstract1", holder="Tomasz", q="What is the word limit for the workshop abstract?", terms=["250"],
             cls="fact-in-question"),
        dict(t="brother", holder="Pawel", holder_terms=["Pawel"], other=True, q="What does Tomasz's brother Pawel do?",
             terms=["vet"], cls="relative"),
        dict(t="brother", holder="Pawel", holder_terms=["Pawel"], other=True, q="Where does Tomasz's brother live?",
             terms=["Krakow"], cls="relative"),
        dict(t="funding", holder="Tomasz", q="When does Tomasz's studentship end?", terms=["September 2027"],
             cls="fact-in-question"),
        dict(t="kenji_leave", holder="Kenji", holder_terms=["Kenji"], other=True, q="Where is Kenji going for his postdoc?",
             terms=["Basel"], cls="subordinate-clause"),
        dict(t="results", holder="Tomasz", q="By how much did drug B reduce migration?", terms=["41%"], cls="number"),
        dict(t="submitted", holder="Tomasz", q="When did Tomasz submit the abstract?", terms=["14 February"], cls="date"),
        dict(t="pi2", holder="Ramsay", holder_terms=["Ramsay"], other=True, q="Where is Prof. Ramsay moving?",
             terms=["Glasgow"], cls="other-person"),
        dict(t="microscope", holder="Ines", holder_terms=["Ines"], other=True, q="Who is the imaging facility manager?",
             terms=["Ines"], cls="subordinate-clause"),
        dict(t="conf_budget", holder="Tomasz", q="How much conference travel money does Tomasz get?", terms=["600"],
             cls="fact-in-question"),
        dict(t="myco", holder="Tomasz", q="What was the result of the mycoplasma test?", terms=["negative"], cls="own-attribute"),
    ],
    "unanswerable": [
        dict(q="What is the IC50 of drug B?", cls="absent-attribute"),
        dict(q="Where does Tomasz's sister work?", cls="wrong-person"),
        dict(q="Which passage is Kenji's HeLa line at?", cls="near-miss"),
        dict(q="What was the submission ID of the abstract?", cls="absent-attribute"),
    ],
    "non_conflicts": [
        dict(a="cells1", b="kenji", matter="Tomasz's passage vs Kenji's passage"),
        dict(a="ab_fix", b="kenji_ab", matter="Tomasz's dilution vs Kenji's dilution"),
        dict(a="n1", b="results", matter="planned n vs result"),
    ],
}
