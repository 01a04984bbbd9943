META = dict(id="b11", genre="house-buying", title="buying a first house", user_id="sraman", user_name="Sanjay")

SCRIPT = """
@ s1 2026-01-11T13:00:00-07:00
S: You are a home-buying assistant. Explain the process, costs and trade-offs in general terms; you are not a mortgage broker or lawyer.
U budget1: My wife Meera and I are starting to look for a house in Denver. Budget is $420,000 max. Realistic for a 3-bed?
A: In Denver proper, $420,000 for a 3-bed is tight; look at Aurora, Lakewood or Westminster, or consider a townhome.
U first_time: We've never owned a home, so we're first-time buyers. Any programs for that?
A: Colorado's CHFA has first-time buyer programs with down payment assistance; Denver has its own too. Income limits apply.
U preapproval1: Got pre-approved for $450,000 at 6.8% with a local credit union. Should I shop other lenders?
A: Yes. Get two or three quotes within a two-week window; the credit pulls count as one.
U realtor1: Our realtor is Dana Fox, she's been great so far, she says to offer over asking in this market. True?
A: It depends on the neighbourhood and days on market. Ask her for recent comparable sales.
U down: We have $42,000 saved for the down payment, that's 10% of our budget. Is that enough?
A: 10% is fine; you'll pay PMI below 20%, which can be removed later.
U: OK.
A: Next step: list your must-haves.
U musts: Must-haves:
  - 3 bedrooms
  - garage
  - under 30 min to Meera's job at Children's Hospital in Aurora
  - yard for the dog
A: Good list. Aurora and east Denver fit the commute.

@ s2 2026-02-08T18:30:00-07:00
U offer1: Made an offer on a house on Maple Ct in Aurora at $415,000, they had 9 offers. Odds?
A: With nine offers, competitive terms matter as much as price: a shorter inspection period, flexible closing.
U rejected: Maple Ct went to someone else, $40k over asking. Ouch.
A: That's common in a hot market. Don't stretch past what you're comfortable paying monthly.
U budget2: We talked and raised our max to $465,000 since rates dropped a bit. Does that change the pre-approval?
A: Yes, you'll need the pre-approval letter updated to cover $465,000.
U preapproval2: Lender updated us to $480,000 pre-approval, rate now quoted at 6.25%. Lock now?
A: If you have a house under contract soon, locking protects you; most locks need a property address.
U parents: My parents in Cleveland want to gift $15,000. Is there paperwork?
A: Yes: a signed gift letter stating it's not a loan, and bank statements showing the transfer.
U realtor2: Dana Fox is going on maternity leave so her colleague Luis Ortega is our realtor now. Do we need to sign anything new?
A: Usually a new buyer agency agreement or an amendment. Ask the brokerage.
U: got it
A: Good luck on the next offer.

@ s3 2026-03-15T12:10:00-06:00
U contract: We're under contract!! 1842 Juniper St in Lakewood, $452,000. Inspection is Thursday.
A: Congratulations! Attend the inspection and bring questions.
U inspection: Inspection found radon at 6.1 pCi/L, EPA action level is 4. Ask for a credit?
A: Yes. Mitigation typically costs $1,000-1,500; ask the sellers to install it or credit you.
U radon: Sellers agreed to a $1,200 credit for radon mitigation.
A: Great outcome.
U rate_lock: Locked at 6.25% for 45 days.
A: Good. Make sure closing happens within the lock.
U closing1: Closing is set for June 12.
A: That fits the 45-day lock? It's more than 45 days from now; check the lock expiry.
U closing2: You're right, lender says the lock expires before that, so closing moved up to April 24 instead.
A: Good catch by the lender. Schedule movers early.
U condo: When we sold our condo in Austin in 2021 the title company handled everything, is it the same here?
A: Colorado uses title companies for closings too; they'll coordinate the documents and funds.
U: ok
A: Anything else?
U dog: Our dog Mochi is a 70 lb husky, the yard has a 4 ft fence, enough?
A: Huskies are notorious jumpers; 6 ft is safer.

@ s4 2026-04-27T19:00:00-06:00
U closed: We closed on Friday! Keys in hand.
A: Congratulations on your new home!
U movein: Moving in May 2. Change the locks first thing?
A: Yes, rekey all exterior doors and change the garage code.
U fence: Got a quote for a 6 ft fence, $7,800. Steep?
A: For a typical suburban lot, $6,000-10,000 is common.
U meera_commute: Meera's commute is 22 min now instead of 40 from our old apartment.
A: A nice quality-of-life upgrade.
U last: Thanks for everything.
A: Enjoy the house!
"""

GOLD = {
    "updates": [
        dict(attr="max budget", holder="Sanjay", orig="budget1", orig_value="$420,000", upd="budget2",
             upd_value="$465,000", q="What is Sanjay and Meera's maximum budget?", cls="money"),
        dict(attr="pre-approval amount", holder="Sanjay", orig="preapproval1", orig_value="$450,000",
             upd="preapproval2", upd_value="$480,000", q="How much are Sanjay and Meera pre-approved for?", cls="money"),
        dict(attr="mortgage rate", holder="Sanjay", orig="preapproval1", orig_value="6.8%", upd="rate_lock",
             upd_value="6.25%", q="What mortgage rate did Sanjay lock?", cls="implicit-attribute"),
        dict(attr="realtor", holder="Sanjay", orig="realtor1", orig_value="Dana Fox", upd="realtor2",
             upd_value="Luis Ortega", q="Who is Sanjay's realtor?", cls="name-change"),
        dict(attr="closing date", holder="Sanjay", orig="closing1", orig_value="June 12", upd="closing2",
             upd_value="April 24", q="When is the closing?", cls="deadline"),
        dict(attr="house under contract", holder="Sanjay", orig="offer1", orig_value="Maple Ct", upd="contract",
             upd_value="Juniper St", q="Which house are Sanjay and Meera buying?", cls="home-change"),
    ],
    "contradictions": [
        dict(a="first_time", b="condo", holder="Sanjay", matter="has owned a home before",
             q="Have Sanjay and Meera owned a home before?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="budget1", holder="Meera", holder_terms=["Meera"], other=True, q="What is the name of Sanjay's wife?",
             terms=["Meera"], cls="relative"),
        dict(t="musts", holder="Meera", holder_terms=["Meera"], other=True, q="Where does Meera work?",
             terms=["Children's Hospital"], cls="list-item"),
        dict(t="parents", holder="Sanjay's parents", holder_terms=["parents"], other=True,
             q="Where do Sanjay's parents live?", terms=["Cleveland"], cls="relative"),
        dict(t="parents", holder="Sanjay's parents", holder_terms=["parents"], other=True,
             q="How much are Sanjay's parents gifting?", terms=["15,000"], cls="relative"),
        dict(t="inspection", holder="Sanjay", q="What radon level did the inspection find?", terms=["6.1"], cls="number"),
        dict(t="radon", holder="Sanjay", q="How much credit did the sellers give for radon?", terms=["1,200"], cls="money-fact"),
        dict(t="dog", holder="Sanjay", q="What breed is Sanjay's dog Mochi?", terms=["husky"], cls="subordinate-clause"),
        dict(t="down", holder="Sanjay", q="How much have Sanjay and Meera saved for the down payment?", terms=["42,000"],
             cls="fact-in-question"),
        dict(t="contract", holder="Sanjay", q="How much is the Juniper St house?", terms=["452,000"], cls="number"),
        dict(t="fence", holder="Sanjay", q="How much is the fence quote?", terms=["7,800"], cls="fact-in-question"),
        dict(t="meera_commute", holder="Meera", holder_terms=["Meera"], other=True, q="How long is Meera's commute now?",
             terms=["22 min"], cls="relative"),
    ],
    "unanswerable": [
        dict(q="What is Sanjay's job?", cls="absent-attribute"),
        dict(q="Where do Meera's parents live?", cls="wrong-person"),
        dict(q="How much are the property taxes on the Juniper St house?", cls="absent-attribute"),
    ],
    "non_conflicts": [
        dict(a="budget1", b="preapproval1", matter="budget vs pre-approval amount"),
        dict(a="down", b="radon", matter="down payment vs seller credit"),
    ],
}
