META = dict(id="b10", genre="parenting", title="parenting a toddler", user_id="marisol.r", user_name="Marisol")

SCRIPT = """
@ s1 2025-09-10T20:45:00-06:00
S: You are a parenting support assistant. Share general, evidence-based guidance on child development and sleep, and suggest seeing a pediatrician for health concerns.
U age1: hi, my son leo is 28 months and he's fighting bedtime every single night, we do bedtime at 7:30 and it takes like an hour. what are we doing wrong
A: Bedtime battles are really common at this age. A predictable routine and a slightly later or earlier bedtime can help. How long does he nap?
U nap1: he naps 2 hours at daycare, from 12:30 to 2:30, is that too long?
A: A long late nap can push bedtime later. Some toddlers do better with a shorter nap.
U daycare1: his daycare is Little Sprouts on Colfax, they're nice but they won't wake him up
A: You can ask them to cap the nap at 90 minutes; many centres will if a parent asks.
U ear_never: leo's never had an ear infection which is lucky bc his cousin gets them constantly. anything i should watch for anyway?
A: Tugging the ear, fever and poor sleep are common signs. See the pediatrician if you notice them.
U husband: my husband tyler works night shifts as a firefighter so bedtime is usually just me. any tricks for solo bedtime?
A: Keep the same order every night, use a visual routine chart, and give him small choices, like which pyjamas.
U words1: also he says about 20 words, should i be worried at 28 months?
A: Many pediatricians like to see around 50 words and some two-word phrases by 24-30 months. It's worth mentioning at his next checkup.
U: ok thats scary
A: It's very often nothing, but early support helps if it's needed.

@ s2 2025-09-24T21:10:00-06:00
U age_fix: correction: leo is 26 months not 28, i was counting from the wrong month lol
A: Thanks. At 26 months, 20 words is still worth a check, but there's a bit more room.
U bedtime2: we moved bedtime to 7:00 and he falls asleep in 15 min now?? magic
A: That's great. Sometimes an overtired toddler fights sleep harder.
U nap2: daycare agreed to cap his nap at 1 hour, so maybe that's helping too
A: Very likely. The two changes work together.
U pregnant: also im 30 weeks pregnant with a girl, how do i prepare leo for a sister?
A: Read books about new siblings, involve him in small jobs, and keep his routine steady around the birth.
U ear_winter: his ear infections last winter were awful, two rounds of antibiotics, should i get him a flu shot this year to avoid that again?
A: The flu vaccine is recommended for toddlers and can reduce some ear infections that follow flu. Ask the pediatrician.
U mom: my mom lives in el paso and she's coming up for 3 weeks when the baby comes, is that long enough?
A: Three weeks of help is wonderful. Ask her to focus on Leo so you can rest with the baby.
U speech: the pediatrician referred us for a speech eval at Children's, appointment is october 20
A: Good. Write down the words he uses before the appointment.
U: ok will do
A: You're doing great.

@ s3 2025-11-30T19:50:00-07:00
U baby: ivy was born on november 18!! 7 lb 2 oz. leo is... adjusting lol
A: Congratulations! Regression after a new sibling is very normal.
U words2: speech lady said he's at 50 words now and putting 2 together, so no therapy for now!!
A: That's wonderful news.
U daycare2: we switched leo to bright horizons on elm bc its closer to my work, will the change mess up his sleep
A: Expect a week or two of adjustment. Keep home routines exactly the same.
U ear: ear infection this week, ugh, he was tugging his ear like you said. amoxicillin for 10 days
A: Finish the whole course even if he seems better. Call the doctor if the fever lasts more than two days on antibiotics.
U tyler: tyler switched to day shifts at a new station so he can do bedtime now!!
A: That's a big help with a newborn.
U ivy_sleep: ivy sleeps 3 hours at a stretch at night, normal for 12 days old?
A: Yes, that's typical for a newborn.

@ s4 2026-02-15T20:20:00-07:00
U ear2: this is his second ear infection this winter, the ENT mentioned tubes. is that a big deal?
A: Ear tubes are a common, short procedure for recurrent infections. Ask the ENT about risks and recovery.
U shoes: leo's shoe size jumped to a toddler 8, they grow so fast
A: They do; check the fit every couple of months.
U potty: should we start potty training now that he's 2 and a half?
A: Watch for readiness signs: staying dry for two hours, interest in the toilet, telling you when he's wet.
U ivy_weight: ivy is 11 lb at her 2 month checkup
A: Sounds like she's growing well.
U last: thank u for helping me survive this year lol
A: You're doing an amazing job, Marisol.
"""

GOLD = {
    "updates": [
        dict(attr="Leo's bedtime", holder="Leo", orig="age1", orig_value="7:30", upd="bedtime2", upd_value="7:00",
             q="What time is Leo's bedtime?", cls="value-in-question"),
        dict(attr="Leo's nap length", holder="Leo", orig="nap1", orig_value="2 hours", upd="nap2", upd_value="1 hour",
             q="How long does Leo nap at daycare?", cls="value-in-question"),
        dict(attr="Leo's age", holder="Leo", orig="age1", orig_value="28 months", upd="age_fix", upd_value="26 months",
             q="How old is Leo in months?", cls="correction"),
        dict(attr="Leo's vocabulary", holder="Leo", orig="words1", orig_value="20 words", upd="words2",
             upd_value="50 words", q="How many words does Leo say?", cls="count"),
        dict(attr="Leo's daycare", holder="Leo", orig="daycare1", orig_value="Little Sprouts", upd="daycare2",
             upd_value="Bright Horizons", q="Which daycare does Leo go to?", cls="name-change"),
        dict(attr="Tyler's shift", holder="Tyler", orig="husband", orig_value="night shifts", upd="tyler",
             upd_value="day shifts", q="What shifts does Tyler work?", cls="relative-attribute-change"),
    ],
    "contradictions": [
        dict(a="ear_never", b="ear_winter", holder="Leo", matter="ear infection history",
             q="Has Leo had ear infections?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="husband", holder="Tyler", holder_terms=["Tyler"], other=True, q="What is Tyler's job?",
             terms=["firefighter"], cls="relative"),
        dict(t="mom", holder="Marisol's mom", holder_terms=["mom", "mother"], other=True,
             q="Where does Marisol's mom live?", terms=["el paso"], cls="relative"),
        dict(t="baby", holder="Ivy", holder_terms=["Ivy"], other=True, q="When was Ivy born?", terms=["november 18"],
             cls="relative"),
        dict(t="baby", holder="Ivy", holder_terms=["Ivy"], other=True, q="How much did Ivy weigh at birth?",
             terms=["7 lb"], cls="relative"),
        dict(t="speech", holder="Leo", holder_terms=["Leo"], other=True, q="When is Leo's speech evaluation?",
             terms=["october 20"], cls="relative"),
        dict(t="ear", holder="Leo", holder_terms=["Leo", "amoxicillin"], other=True,
             q="What antibiotic was Leo prescribed?", terms=["amoxicillin"], cls="relative"),
        dict(t="shoes", holder="Leo", holder_terms=["Leo"], other=True, q="What shoe size does Leo wear?",
             terms=["8"], cls="relative"),
        dict(t="ivy_weight", holder="Ivy", holder_terms=["Ivy"], other=True, q="How much did Ivy weigh at her 2 month checkup?",
             terms=["11 lb"], cls="relative"),
        dict(t="daycare1", holder="Leo", q="Which street was Little Sprouts on?", terms=["colfax"], cls="own-attribute"),
        dict(t="pregnant", holder="Marisol", q="How many weeks pregnant was Marisol in September?", terms=["30 weeks"],
             cls="fact-in-question"),
    ],
    "unanswerable": [
        dict(q="What is the name of Leo's pediatrician?", cls="absent-attribute"),
        dict(q="Where does Tyler's mother live?", cls="wrong-person"),
        dict(q="How many words does Ivy say?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="nap1", b="ivy_sleep", matter="Leo's nap length vs Ivy's sleep stretch"),
        dict(a="baby", b="ivy_weight", matter="birth weight vs 2-month weight"),
    ],
}
