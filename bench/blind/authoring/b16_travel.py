META = dict(id="b16", genre="family-travel", title="a family trip to Portugal", user_id="megan.obrien", user_name="Megan")

SCRIPT = """
@ s1 2026-01-18T21:00:00-05:00
S: You are a travel planning assistant for families. Suggest practical itineraries, kid-friendly activities and logistics.
U start: Planning a trip to Portugal this summer for the 4 of us, me, my husband Kieran and our two kids, flying out of Boston on June 28. Two weeks. Lisbon and the Algarve?
A: Lovely plan. A week in Lisbon with day trips to Sintra, then a week on the Algarve coast works well with kids.
U never_portugal: We've never been to Portugal so I have no idea about neighbourhoods. Where should a family stay in Lisbon?
A: Príncipe Real, Estrela or Parque das Nações are calmer and family-friendly; Alfama is charming but hilly.
U kids: Kids are Finn, 10, and Rosie, 8. Finn has a peanut allergy, how hard is that in Portugal?
A: Peanuts are less common in Portuguese cooking than in the US, but carry a translated allergy card and two epinephrine injectors.
U budget1: Budget for everything except flights is €6,000. Enough for two weeks?
A: For a family of four, €6,000 is workable with mid-range apartments and some restaurant meals.
U car1: we'll rent a compact car for the Algarve part, do they drive on the right?
A: Yes, Portugal drives on the right. Book an automatic early; they're less common.
U: great
A: Want a day-by-day for Lisbon?
U lisbon: yes please
A: Draft:
  - Day 1 arrive, Belém pastries
  - Day 2 Oceanário
  - Day 3 Sintra (Pena Palace)
  - Day 4 tram 28 and Alfama
  - Day 5 beach at Cascais

@ s2 2026-02-09T20:30:00-05:00
U rosie_fix: Correction: Rosie is 7, not 8, she turns 8 in September. Does that change anything, like kids' prices?
A: Some attractions price by age bands, so check; many give free entry under 6 and child rates up to 12.
U inlaws: Kieran's parents want to come too, so we're 6 now! They live in Scranton and will fly from Philly. Does that break the plan?
A: Not at all, but you'll want bigger apartments and a larger car.
U car2: so we need a 7-seater van instead of the compact, right?
A: Yes, a 7-seater minivan for the Algarve. Book early; they sell out in summer.
U budget2: and with the in-laws chipping in the budget is €7,500 now
A: That gives you room for larger apartments.
U dates2: flights got changed by TAP, we now leave Boston on July 5 instead. Does that cut the trip?
A: If you return on the same date, yes. Check whether TAP will move the return too; they often allow free changes after a schedule change.
U lisbon_before: Kieran reminded me that last time we were in Lisbon the trams were packed, that was our honeymoon in 2012, so maybe skip tram 28?
A: Tram 28 is very crowded in summer. Try tram 24 or the 12E instead, or ride early in the morning.
U: ha good idea
A: Any other must-dos?

@ s3 2026-04-02T19:00:00-04:00
U algarve: booked a villa near Lagos for the Algarve week, €2,100, with a pool
A: Great for kids. Check pool fencing for younger ones.
U finn_swim: finn is on the swim team so he wants to do a kayak tour to the caves at Ponta da Piedade. safe for 10 year olds?
A: Many operators take kids from 6 with life jackets; pick a guided tour in the morning when the sea is calmer.
U inlaw_mobility: Kieran's mom uses a cane, the Lisbon hills scare me
A: Use taxis or Bolt between neighbourhoods and pick an apartment with a lift.
U apartment: Lisbon apartment is in Estrela, 3 bedrooms, lift included
A: Perfect for the group.
U return: TAP moved our return to July 19, so we keep the full two weeks
A: Excellent.
U: yay
A: Sounds set.

@ s4 2026-07-22T15:00:00-04:00
U home: back home! the kayak tour was everyone's favourite
A: So glad! The caves are stunning.
U allergy_ok: finn had zero allergy scares, the card helped a lot
A: Great to hear.
U spent: we spent about €7,100 in the end, under budget
A: Nicely done.
U last: thanks for all the help
A: Welcome home, Megan!
"""

GOLD = {
    "updates": [
        dict(attr="number of travellers", holder="Megan", orig="start", orig_value="4", upd="inlaws", upd_value="6",
             q="How many people are going on Megan's trip to Portugal?", cls="count"),
        dict(attr="Rosie's age", holder="Rosie", orig="kids", orig_value="Rosie, 8", upd="rosie_fix", upd_value="7",
             q="How old is Rosie?", cls="correction"),
        dict(attr="rental car", holder="Megan", orig="car1", orig_value="compact car", upd="car2", upd_value="7-seater",
             q="What car is Megan renting for the Algarve?", cls="value-in-question"),
        dict(attr="trip budget", holder="Megan", orig="budget1", orig_value="€6,000", upd="budget2", upd_value="€7,500",
             q="What is the budget for the Portugal trip?", cls="money"),
        dict(attr="departure date", holder="Megan", orig="start", orig_value="June 28", upd="dates2", upd_value="July 5",
             q="When does Megan's family fly to Portugal?", cls="deadline"),
    ],
    "contradictions": [
        dict(a="never_portugal", b="lisbon_before", holder="Megan", matter="has been to Portugal",
             q="Has Megan been to Portugal before?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="start", holder="Kieran", holder_terms=["Kieran"], other=True, q="What is the name of Megan's husband?",
             terms=["Kieran"], cls="relative"),
        dict(t="start", holder="Megan", q="Which city is Megan's family flying out of?", terms=["Boston"], cls="fact-in-question"),
        dict(t="kids", holder="Finn", holder_terms=["Finn"], other=True, q="What is Finn allergic to?", terms=["peanut"],
             cls="relative"),
        dict(t="kids", holder="Finn", holder_terms=["Finn"], other=True, q="How old is Finn?", terms=["10"], cls="relative"),
        dict(t="inlaws", holder="Kieran's parents", holder_terms=["parents", "Kieran"], other=True,
             q="Where do Kieran's parents live?", terms=["Scranton"], cls="relative"),
        dict(t="algarve", holder="Megan", q="Where is the villa for the Algarve week?", terms=["Lagos"], cls="own-attribute"),
        dict(t="algarve", holder="Megan", q="How much does the Algarve villa cost?", terms=["2,100"], cls="number"),
        dict(t="finn_swim", holder="Finn", holder_terms=["Finn"], other=True, q="Which team is Finn on?", terms=["swim"],
             cls="subordinate-clause"),
        dict(t="apartment", holder="Megan", q="Which Lisbon neighbourhood is the apartment in?", terms=["Estrela"], cls="own-attribute"),
        dict(t="lisbon_before", holder="Megan", q="When was Megan and Kieran's honeymoon?", terms=["2012"], cls="subordinate-clause"),
        dict(t="spent", holder="Megan", q="How much did the trip cost in the end?", terms=["7,100"], cls="number"),
    ],
    "unanswerable": [
        dict(q="What is the name of the Lisbon apartment's host?", cls="absent-attribute"),
        dict(q="How old is Kieran's father?", cls="wrong-person"),
        dict(q="What is Rosie allergic to?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="budget2", b="spent", matter="budget vs spend"),
        dict(a="kids", b="finn_swim", matter="Finn's age vs kayak age limits"),
    ],
}
