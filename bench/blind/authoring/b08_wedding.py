META = dict(id="b08", genre="event-planning", title="planning a wedding", user_id="chloe.nguyen", user_name="Chloe")

SCRIPT = """
@ s1 2025-04-12T10:00:00+10:00
S: You are a wedding planning assistant. Help with budgets, timelines, vendors and etiquette. Use Australian conventions where relevant.
U: Hiii! We're engaged!! And I already feel overwhelmed
A: Congratulations! Let's break it into steps. Do you have a date, a rough guest count and a budget in mind?
U basics1: We're thinking 14 March 2026, about 120 guests, and a budget of $35,000 all in. Is that doable in Melbourne?
A: It's doable, though $35,000 for 120 guests means roughly $290 per head across everything. Venue and catering will be the biggest chunk.
U venue1: We love Riverbend Estate in the Yarra Valley, they quoted $165 per head for food and drinks, is that normal?
A: $165 per head for a winery package is in the normal range. Check what's included: drinks hours, cake cutting, furniture.
U fiance: My fiancé Ben works at the Bureau of Meteorology so he's obsessed with rain backup plans lol, what's a good wet weather option?
A: Ask the venue for an indoor ceremony space or a marquee on hold. Ben will be pleased.
U no_party: We're not having a bridal party at all, just us two up the front, is that weird?
A: Not at all. Many couples skip the bridal party; you can still honour people with readings or speeches.
U sister: My sister Anh lives in Sydney and she's a bit hurt about no bridesmaids, how do I handle that?
A: Give her a special role: a reading, witnessing the marriage certificate, or helping you get ready.
U mum: And Mum is in Perth, she'll fly over a week before. Should she stay with us or in a hotel?
A: Whatever keeps the week calm. A hotel nearby can give everyone space.
U: good point haha
A: Shall we draft a rough timeline next?
U: yes please
A: Roughly: venue and photographer now, caterer and celebrant by mid-year, invitations in November, final numbers four weeks out.

@ s2 2025-05-03T14:30:00+10:00
U ben_dry: Ben doesn't drink at all, so I'm wondering if a full drinks package is even worth it for us, thoughts?
A: Your guests may still drink. A shorter drinks package plus good mocktails could save money.
U photographer: Booked our photographer, Sasha Ortiz, $4,800 for 8 hours. Did I overpay?
A: That's a typical price for an experienced Melbourne wedding photographer.
U celebrant: the celebrant is a friend of Ben's, Priscilla, she's doing it for free but we'll pay for her accommodation
A: Lovely. Make sure she's a registered celebrant, or you'll need a quick registry signing.
U budget2: Ok so after Ben's parents offered to help we've bumped the budget to $42,000, where should the extra go?
A: Put some into a contingency (10%), then decide on one thing that matters most to you both.
U rsvps_plan: when do invites go out for a March wedding?
A: Save the dates now-ish, invitations around November, RSVPs due by late January.
U cake: thinking lemon and elderflower for the cake, too summery for March?
A: March is still warm in Melbourne, so it's perfect.
U guests2: and the guest list is creeping up, Ben's side alone is 80 now so we're at 145 total, help
A: At 145 you'll want to check the venue's capacity and your per-head costs again.
U: ugh yes
A: Let's revisit the list together if you want.

@ s3 2025-06-21T11:15:00+10:00
U venue2: Riverbend can't fit 145 inside if it rains, so we switched to Saltbush Winery on the Mornington Peninsula, they have a big barn. Is it a problem to change venue this late?
A: Nine months out is fine. Tell your photographer and celebrant about the new location.
U date2: Saltbush only had 21 March free, not the 14th, so the date moved too. Do I need to tell people who got save the dates?
A: Yes, send a quick update to everyone who received a save the date.
U caterer1: Saltbush doesn't do in-house food, so we went with Fig & Fennel for catering, they do share plates
A: Share plates work well at a barn wedding. Confirm dietary options early.
U dietary: 9 guests are gluten free and 4 are vegan, is that a lot for a caterer?
A: That's quite normal. Ask for those meals to be labelled clearly.
U dj: we've decided on a DJ instead of a band, DJ Marlo, $1,900 for the night
A: A DJ is often more flexible for a mixed crowd.
U first_dance: first dance is going to be Dreams by Fleetwood Mac, too cliche?
A: It's a classic for a reason.
U: haha ok
A: Anything else on your mind?
U honeymoon: honeymoon! Hokkaido in April, skiing is over by then right?
A: Most Hokkaido ski resorts close in early April. Late April is quiet, with cherry blossoms arriving in May.

@ s4 2025-08-30T16:40:00+10:00
U anh_move: Anh is moving from Sydney to Brisbane for work, so she'll be flying down from there. Should we help with her flights?
A: It's generous but not expected. A contribution is a nice gesture if you can.
U bridesmaids: my three bridesmaids want sage green dresses, Anh, my friend Lou and Ben's cousin Tess. do I pay for them?
A: Etiquette varies; many brides cover alterations or accessories if they picked the dress.
U caterer2: Fig & Fennel went out of business!!! We've booked Harbour Kitchen instead, $98 per head. Is that a normal deposit, 30%?
A: A 30% deposit is common. Get the contract in writing with the menu and the numbers.
U ben_job: Ben started at Telstra this month, as a data analyst, so he has less leave, the honeymoon might be 10 days instead of 14
A: Ten days in Hokkaido is still a great trip.
U whisky: Ben wants a whisky tasting table at the reception because he's a massive whisky guy, is that over the top?
A: It can be a fun, personal touch. Ask the venue about their liquor licence for it.
U rings: rings are being made by a jeweller in Fitzroy, $3,200 for both
A: That's reasonable for handmade bands.
U: phew
A: You're doing great.
U gran: Ben's grandmother Rose is 96 and uses a wheelchair, is the barn accessible?
A: Ask Saltbush about ramps, accessible toilets and a seat near the aisle for Rose.

@ s5 2025-11-08T20:00:00+11:00
U invites: invitations went out yesterday!! RSVP by 31 January
A: Exciting! Keep a spreadsheet of responses as they come in.
U rsvp1: already got 38 RSVPs back in a day, is that normal?
A: An early wave like that is very common.
U seating: how do I seat divorced parents? Ben's mum and dad haven't spoken in years
A: Put them at separate tables with their own people, both with a good view of the ceremony.
U budget_check: we've spent $31,500 so far out of the $42,000
A: That leaves $10,500 for the rest, including contingency. Keep a running list.
U hair: the hairdresser wants $850 for me plus three bridesmaids, fair?
A: For a wedding morning in Melbourne that's within the usual range.
U: ok booking it
A: Nice.
U vows: help with vows, I want funny but not too funny
A: Start with one true story, one promise that's light and one that's serious. Keep it under two minutes.

@ s6 2026-01-28T19:30:00+11:00
U rsvp2: we've got 112 RSVPs back, should I chase the rest before the 31st?
A: Yes, a friendly message a few days before the deadline usually gets most of the rest.
U guests_fix: Correction: final numbers are 140 guests, not 145, five of Ben's cousins can't come from overseas
A: Noted: 140 guests. Send the final number to Harbour Kitchen and Saltbush.
U weather: Ben says the long range forecast for 21 March is 27 degrees and sunny, should we still hold the marquee?
A: Keep the barn as the backup. Long-range forecasts change.
U mum_arrive: Mum arrives from Perth on 14 March, the day the wedding was originally going to be haha
A: That's a nice coincidence. A week to settle in before the day.
U speech: Anh is doing a speech, any tips I can pass on? She's terrified
A: Three minutes, one story, a toast at the end, and practise out loud twice.
U: thanks!!
A: You've got this.
U timeline_day: can you do a run sheet for the day? ceremony at 3:30
A: Draft:
  - 3:30 ceremony
  - 4:00 photos and canapes
  - 5:30 reception
  - 6:00 entrees
  - 7:30 speeches
  - 8:00 first dance
  - 11:00 finish

@ s7 2026-03-26T12:00:00+11:00
U after: WE'RE MARRIED! it was perfect, it didn't rain, Ben cried at the vows
A: Congratulations to you both! So glad it was perfect.
U thank_you: how long do I have to send thank you cards?
A: Within two to three months is the usual guideline.
U photos_back: Sasha says the photos will be ready in six weeks
A: That gives you something to look forward to after the honeymoon.
U final_cost: final cost came in at $43,200, a bit over the $42,000, oops
A: Only about 3% over, which is very common. Don't feel bad.
U last: thanks for all the help this year!!
A: It was a joy. Enjoy Hokkaido!
"""

GOLD = {
    "updates": [
        dict(attr="guest count", holder="Chloe", orig="basics1", orig_value="120 guests", upd="guests_fix",
             upd_value="140 guests", q="How many guests are coming to Chloe's wedding?", cls="correction"),
        dict(attr="wedding budget", holder="Chloe", orig="basics1", orig_value="$35,000", upd="budget2",
             upd_value="$42,000", q="What is Chloe and Ben's wedding budget?", cls="money"),
        dict(attr="venue", holder="Chloe", orig="venue1", orig_value="Riverbend", upd="venue2", upd_value="Saltbush",
             q="Where is Chloe's wedding venue?", cls="paraphrased-attribute"),
        dict(attr="wedding date", holder="Chloe", orig="basics1", orig_value="14 March", upd="date2",
             upd_value="21 March", q="When is Chloe's wedding?", cls="deadline"),
        dict(attr="caterer", holder="Chloe", orig="caterer1", orig_value="Fig & Fennel", upd="caterer2",
             upd_value="Harbour Kitchen", q="Who is catering Chloe's wedding?", cls="name-change"),
        dict(attr="RSVPs received", holder="Chloe", orig="rsvp1", orig_value="38 RSVPs", upd="rsvp2",
             upd_value="112 RSVPs", q="How many RSVPs have come back?", cls="value-in-question"),
        dict(attr="Ben's employer", holder="Ben", orig="fiance", orig_value="Bureau of Meteorology", upd="ben_job",
             upd_value="Telstra", q="Where does Ben work?", cls="employer-change"),
        dict(attr="Anh's city", holder="Anh", orig="sister", orig_value="Sydney", upd="anh_move", upd_value="Brisbane",
             q="Where does Chloe's sister Anh live?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="no_party", b="bridesmaids", holder="Chloe", matter="has a bridal party",
             q="Does Chloe have bridesmaids?", cls="negation-vs-possession"),
        dict(a="ben_dry", b="whisky", holder="Ben", matter="Ben drinks alcohol",
             q="Does Ben drink alcohol?", cls="other-person-negation"),
    ],
    "facts": [
        dict(t="mum", holder="Chloe's mum", holder_terms=["Mum", "mother"], other=True, q="Where does Chloe's mum live?",
             terms=["Perth"], cls="relative"),
        dict(t="photographer", holder="Sasha Ortiz", holder_terms=["Sasha"], other=True,
             q="How much is the photographer charging?", terms=["4,800"], cls="other-person"),
        dict(t="celebrant", holder="Priscilla", holder_terms=["Priscilla"], other=True, q="Who is the celebrant?",
             terms=["Priscilla"], cls="other-person"),
        dict(t="cake", holder="Chloe", q="What flavour is the wedding cake?", terms=["lemon", "elderflower"], cls="fact-in-question"),
        dict(t="dietary", holder="guests", holder_terms=["gluten"], other=True, q="How many guests are gluten free?",
             terms=["9"], cls="number"),
        dict(t="dj", holder="DJ Marlo", holder_terms=["Marlo"], other=True, q="How much does the DJ cost?",
             terms=["1,900"], cls="other-person"),
        dict(t="first_dance", holder="Chloe", q="What is Chloe and Ben's first dance song?", terms=["Dreams"], cls="fact-in-question"),
        dict(t="honeymoon", holder="Chloe", q="Where are Chloe and Ben going on honeymoon?", terms=["Hokkaido"], cls="own-attribute"),
        dict(t="gran", holder="Rose", holder_terms=["Rose"], other=True, q="How old is Ben's grandmother Rose?",
             terms=["96"], cls="relative"),
        dict(t="rings", holder="Chloe", q="Where are the wedding rings being made?", terms=["Fitzroy"], cls="own-attribute"),
        dict(t="bridesmaids", holder="Tess", holder_terms=["Tess"], other=True, q="Who is Tess?",
             terms=["cousin"], cls="list-item"),
        dict(t="mum_arrive", holder="Chloe's mum", holder_terms=["Mum"], other=True, q="When does Chloe's mum arrive?",
             terms=["14 March"], cls="relative"),
        dict(t="final_cost", holder="Chloe", q="What did the wedding cost in the end?", terms=["43,200"], cls="number"),
    ],
    "unanswerable": [
        dict(q="What is the name of Chloe's wedding dress designer?", cls="absent-attribute"),
        dict(q="Where does Chloe's brother live?", cls="wrong-person"),
        dict(q="How much did the honeymoon cost?", cls="absent-attribute"),
        dict(q="Where does Ben's sister live?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="basics1", b="mum_arrive", matter="original date vs mum's arrival on the same day"),
        dict(a="dj", b="photographer", matter="DJ price vs photographer price"),
        dict(a="sister", b="mum", matter="sister's city vs mum's city"),
    ],
}
