META = dict(id="b03", genre="eldercare", title="caring for an elderly parent", user_id="grace_okafor", user_name="Grace")

SCRIPT = """
@ s1 2025-09-08T22:10:00-04:00
S: You are a caregiving support assistant. You help family caregivers organise care, appointments and paperwork. You do not give medical diagnoses; for medication questions you suggest asking the prescriber or pharmacist.
U intro: Hi, I'm looking after my mother who is 81 and has early Alzheimer's. She still lives alone in Macon, about an hour and a half from me in Atlanta, and I'm driving down every weekend. I'm exhausted. Where do I even start?
A: I'm sorry, that's a lot to carry. A good start is a list of what she needs help with day to day, and who can cover what. Does anyone else help?
U brother: My brother Emeka lives in Houston and he sends money but he's never visited since her diagnosis, which honestly makes me so angry. Is it normal to resent a sibling over this?
A: Very normal. Caregivers often carry resentment when tasks are uneven. Asking him for something specific, like handling bills or calls with insurance, may help.
U meds1: Her doctor put her on donepezil 5 mg at night back in July. How do I know if its working?
A: Changes are often subtle: steadier mood or slightly better recall. Her prescriber can tell you what to watch for and when they would review the dose.
U carers1: We have a home care agency sending someone 3 times a week for 4 hours, is that enough for someone living alone?
A: It depends on safety: meals, medication, wandering, falls. Many families increase hours as needs grow.
U never_fell: She's never had a fall, thank God, but I worry about the stairs to her bedroom. Should I put a bed downstairs?
A: Moving the bedroom downstairs before a fall happens is a common and sensible step.
U gp1: her GP is Dr. Lindqvist, he's been her doctor for 20 years and he's retiring soon, so that's another thing
A: Ask him for a referral and a summary letter before he leaves, so the new doctor has the history.
U: ok. thank you. I'll try to sleep
A: Rest well, Grace.

@ s2 2025-09-29T21:40:00-04:00
U appt1: Mum's neurology appointment is on October 19 at Emory, what should I ask the neurologist?
A: Ask about the stage, what changes to expect over the next year, driving safety, and whether the dose should change.
U driving: she still drives to church on Sundays, its 2 miles, the neurologist will probably say stop right?
A: Driving is often the hardest conversation. A formal driving evaluation can take the decision out of your hands.
U my_meds: Also I'm on lisinopril 10 mg for my own blood pressure and I keep forgetting mine because I'm managing hers, any tricks?
A: A weekly pill organiser for yourself next to hers, or a phone alarm, helps many caregivers.
U appt_fix: sorry, her neurology appointment is on October 9 not the 19th, I just checked the letter
A: Thanks, October 9 it is.
X: calendar_add {"title": "Mum neurology, Emory", "date": "2025-10-09"}
T: Event created: Mum neurology, Emory - Thursday October 9 2025, 10:30.
A: I've added it to your calendar for Thursday October 9 at 10:30.
U daughter: my daughter Zara is at college in Athens and she wants to help on weekends, she's 19, is it okay to give her some of this?
A: Yes, with clear, limited tasks. It can be meaningful for both of them.
U church: her church friends bring dinner on Wednesdays, so that's one less day to worry about meals
A: That's a wonderful support. Keep a simple meal calendar so gaps are visible.
U: yes
A: Let me know how the appointment goes.

@ s3 2025-10-10T20:15:00-04:00
U meds2: The neurologist, Dr. Abernathy, doubled her dose so her donepezil went up to 10 mg, any side effects I should look out for?
A: Common ones are nausea, loss of appetite, vivid dreams and a slower pulse. Report fainting or a very slow pulse to the doctor.
U weight1: she weighs 58 kg and she's already not eating much, so the appetite thing scares me
A: Weigh her weekly on the same scale and share the numbers with the doctor.
U driving2: and yes he said no more driving. she cried. I cried.
A: That's a painful loss of independence. Offering a regular ride to church can soften it.
U daycentre1: there's an adult day centre near her that charges $85 a day, is that typical?
A: That's within the typical range. Ask what's included: meals, transport, activities.
U: she hated the idea but agreed to try twice a week
A: That's a good compromise.
U work1: I'm a pharmacist at a Kroger pharmacy and I work 40 hours a week, I don't know how long I can keep this up
A: Ask HR about FMLA and flexible scheduling. You shouldn't have to burn out to keep her safe.

@ s4 2025-11-14T23:00:00-05:00
U carers2: Update: the agency now sends someone 5 days a week, and the church covers Wednesdays. Is there anything else I should put in place before winter?
A: Check heating, add night lights, and make sure the carers know what to do if she wanders.
U weight2: she's down to 53 kg, the doctor wants to see her again in December
A: A 5 kg drop is worth following closely. Ask about supplements and whether the donepezil is affecting her appetite.
U hours: I went part time, 24 hours a week, HR was actually nice about it. Money is tighter though, should I apply for anything?
A: Look into your state's caregiver support program and whether she qualifies for Medicaid waivers for home care.
U gp2: Dr. Lindqvist retired and her new GP is Dr. Patel, she seems sharp, she already ordered bloodwork
A: Good. Send Dr. Patel the neurologist's letter too.
U daycentre2: the day centre put their price up to $92 a day from January, grr
A: It's worth asking whether there's a sliding scale or a subsidy.
U: will do
A: You're doing a lot, Grace.
U poa: do I need power of attorney now or can it wait?
A: It's best done while she can still understand and sign it. An elder law attorney can prepare both financial and healthcare powers.

@ s5 2026-01-22T19:30:00-05:00
U fall: Since her last fall in January she's been using the walker, but she forgets it in the kitchen. Any tricks for remembering?
A: Some families keep a second walker in the bedroom, or attach a bright ribbon. A routine prompt from the carer helps too.
U move_in: We decided she's moving in with me in Atlanta next month, I'm turning the dining room into her bedroom. what do I need to change in the house?
A: Grab bars in the bathroom, a shower chair, clear paths, a nightlight and door alarms if she wanders.
U emeka_visit: when Emeka visited at Christmas he finally saw how bad it's gotten and now he's offering to pay for a bathroom remodel
A: That's a real shift. Let him own that project from start to finish.
U zara_job: Zara got a summer internship in Savannah so she won't be around in June, but she's been amazing
A: Plan the summer coverage now, then, so June isn't a scramble.
U sleep: Mum wakes up at 3am and wants to go to church, how do I handle that?
A: Gentle reassurance rather than correction works best; a clock that shows day and night can help.
U: ok that's helpful
A: Take care of yourself too.

@ s6 2026-03-30T21:00:00-04:00
U magnolia: It got too much at home. She moved into Magnolia Gardens memory care last week, it's 10 minutes from my house. Is it normal to feel this guilty?
A: Very normal. Choosing memory care is often an act of care, not abandonment. Visiting on a routine helps both of you.
U cost: it's $6,400 a month and her savings will last maybe two years, then what?
A: When savings run low, Medicaid may cover memory care in some facilities. Ask Magnolia Gardens whether they accept it and start the paperwork early.
U visits: I'm going every other day after work, is that too much?
A: There's no right number. Some residents settle better with fewer, regular visits.
U medicaid: Emeka is handling the Medicaid application from Houston, he's been great actually
A: That's good teamwork.
U roommate: her roommate there is a retired teacher named Loretta and they sing hymns together, it made me cry happy tears
A: That's lovely. Connection like that matters so much.
U hearing_aids: the staff keep losing her hearing aids, they're the expensive Phonak ones, should I label them?
A: Yes, label the case and ask staff to note them on the evening checklist. Some families keep a cheap backup pair.
U house: we're thinking of selling her house in Macon to pay for care, is that a normal step?
A: It's common. Talk to an elder law attorney first, because a sale can affect Medicaid eligibility timing.
U last: Thank you for walking me through all of this.
A: You're welcome, Grace. I'm here whenever you need.
"""

GOLD = {
    "updates": [
        dict(attr="mother's donepezil dose", holder="Grace's mother", orig="meds1", orig_value="5 mg", upd="meds2",
             upd_value="10 mg", q="What dose of donepezil does Grace's mother take?", cls="dose"),
        dict(attr="carer visit frequency", holder="Grace's mother", orig="carers1", orig_value="3 times a week",
             upd="carers2", upd_value="5 days a week", q="How often does the home care agency send a carer?",
             cls="frequency"),
        dict(attr="neurology appointment date", holder="Grace's mother", orig="appt1", orig_value="October 19",
             upd="appt_fix", upd_value="October 9", q="When is Grace's mother's neurology appointment?", cls="correction"),
        dict(attr="mother's weight", holder="Grace's mother", orig="weight1", orig_value="58 kg", upd="weight2",
             upd_value="53 kg", q="How much does Grace's mother weigh?", cls="implicit-attribute"),
        dict(attr="mother's GP", holder="Grace's mother", orig="gp1", orig_value="Lindqvist", upd="gp2",
             upd_value="Patel", q="Who is Grace's mother's GP?", cls="name-change"),
        dict(attr="day centre price", holder="Grace's mother", orig="daycentre1", orig_value="$85", upd="daycentre2",
             upd_value="$92", q="How much does the adult day centre charge per day?", cls="money"),
        dict(attr="Grace's working hours", holder="Grace", orig="work1", orig_value="40 hours", upd="hours",
             upd_value="24 hours", q="How many hours a week does Grace work?", cls="value-in-question"),
        dict(attr="mother's residence", holder="Grace's mother", orig="intro", orig_value="Macon", upd="magnolia",
             upd_value="Magnolia Gardens", q="Where does Grace's mother live?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="never_fell", b="fall", holder="Grace's mother", matter="has fallen",
             q="Has Grace's mother ever had a fall?", cls="never-vs-past-event"),
        dict(a="brother", b="emeka_visit", holder="Emeka", matter="has visited since diagnosis",
             q="Has Emeka visited their mother?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="intro", holder="Grace", q="Where does Grace live?", terms=["Atlanta"], cls="own-attribute"),
        dict(t="intro", holder="Grace's mother", holder_terms=["mother"], other=True, q="How old is Grace's mother?",
             terms=["81"], cls="relative"),
        dict(t="brother", holder="Emeka", holder_terms=["Emeka"], other=True, q="Where does Grace's brother Emeka live?",
             terms=["Houston"], cls="relative"),
        dict(t="my_meds", holder="Grace", q="What blood pressure medication does Grace take?", terms=["lisinopril"],
             cls="fact-in-question"),
        dict(t="daughter", holder="Zara", holder_terms=["Zara"], other=True, q="Where is Grace's daughter Zara at college?",
             terms=["Athens"], cls="relative"),
        dict(t="daughter", holder="Zara", holder_terms=["Zara"], other=True, q="How old is Zara?", terms=["19"], cls="relative"),
        dict(t="meds2", holder="Dr. Abernathy", holder_terms=["Abernathy"], other=True,
             q="What is the name of Grace's mother's neurologist?", terms=["Abernathy"], cls="subordinate-clause"),
        dict(t="work1", holder="Grace", q="What is Grace's job?", terms=["pharmacist"], cls="own-attribute"),
        dict(t="church", holder="church friends", holder_terms=["church"], other=True,
             q="On which day do the church friends bring dinner?", terms=["Wednesday"], cls="other-person"),
        dict(t="cost", holder="Grace's mother", q="How much does Magnolia Gardens cost per month?", terms=["6,400"],
             cls="fact-in-question"),
        dict(t="roommate", holder="Loretta", holder_terms=["Loretta"], other=True,
             q="What did Grace's mother's roommate Loretta do for work?", terms=["teacher"], cls="other-person"),
        dict(t="hearing_aids", holder="Grace's mother", holder_terms=["mother", "hearing"], other=True,
             q="What brand are Grace's mother's hearing aids?", terms=["Phonak"], cls="relative"),
        dict(t="zara_job", holder="Zara", holder_terms=["Zara"], other=True, q="Where is Zara's summer internship?",
             terms=["Savannah"], cls="relative"),
        dict(t="emeka_visit", holder="Emeka", holder_terms=["Emeka"], other=True, q="What is Emeka offering to pay for?",
             terms=["bathroom"], cls="relative"),
    ],
    "unanswerable": [
        dict(q="What is the name of Grace's husband?", cls="absent-attribute"),
        dict(q="Where does Grace's sister live?", cls="wrong-person"),
        dict(q="How much does Grace earn as a pharmacist?", cls="absent-attribute"),
        dict(q="Which hospital did Grace's mother have surgery at?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="my_meds", b="meds2", matter="Grace's lisinopril 10 mg vs mother's donepezil 10 mg"),
        dict(a="brother", b="intro", matter="brother's city vs Grace's city"),
        dict(a="carers2", b="church", matter="agency days vs church Wednesdays"),
    ],
}
