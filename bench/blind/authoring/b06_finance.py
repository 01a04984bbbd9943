META = dict(id="b06", genre="personal-finance", title="personal finance coaching", user_id="kbrooks", user_name="Kayla")

SCRIPT = """
@ s1 2025-06-02T20:30:00-04:00
S: You are a personal finance assistant. Give general educational guidance on budgeting, debt and saving. You are not a licensed financial advisor; suggest a fee-only planner for complex decisions.
U: ok so I finally want to get my money together, where do I even start
A: Start with a snapshot: income, fixed bills, debts with rates, and savings. Then we can set priorities.
U snapshot1: I make $58,000 a year at Northwind Logistics as a dispatcher, take-home is about $3,600 a month. Is that enough to live on in Columbus and still save?
A: Yes, with a plan. Columbus is moderate on cost of living; saving 10-15% of take-home is realistic for many people at that income.
U rent1: rent is $1,150 for a one-bedroom in German Village, plus utilities around $140. Too much rent?
A: $1,150 is about 32% of take-home, a bit above the 30% guideline, but workable.
U card1: the big thing is my credit card, I owe $7,400 on it at 29.4% APR and I only pay the minimum. How bad is that?
A: At that rate most of a minimum payment goes to interest. Paying it down should be a top priority after a small emergency fund.
U only_debt: the card is my only debt, thank god, no student loans, I paid those off when my grandma left me some money
A: That's a big advantage. All your extra cash can go to the card.
U ef1: I have $3,200 in savings in Ally, should I throw it all at the card?
A: Keep at least $1,000-2,000 as a buffer so a surprise expense doesn't go back on the card.
U luis: my boyfriend Luis has $38,000 in student loans and we're talking about moving in together, should we combine finances?
A: Many couples keep separate accounts plus a joint one for shared bills. His loans stay his legally, but they affect your shared budget.
U: that makes sense
A: Let's build a budget next time with your actual bills.

@ s2 2025-06-18T21:10:00-04:00
U apr_fix: Correction: the card APR is 24.9%, not 29.4%, I looked at the statement. Still bad I know.
A: Thanks. At 24.9% it's still expensive, so the plan stays the same.
U k401: Northwind matches 401k up to 4% and I put in exactly 4%, should I keep doing that while I have card debt?
A: Yes. The match is an immediate return; keep contributing enough to get it.
U budget: here's what I spend roughly:
  - groceries $420
  - gas $160
  - phone $65
  - gym $45
  - streaming $38
  where can I cut?
A: Streaming and the gym are easiest. If you don't use the gym weekly, cancel it and put $45 toward the card.
U gym_cancel: I cancelled the gym, I run outside anyway
A: Nice. That's $540 a year.
U app: I'm using YNAB to track everything, is it worth the subscription?
A: For many people the habit of assigning every dollar pays for it quickly.
U never_invest: I've never invested in anything, stocks scare me, is an index fund actually safe?
A: No investment is risk-free, but a broad index fund spreads risk across hundreds of companies and is a common long-term choice.
U score1: my credit score is 640, will paying down the card raise it fast?
A: Utilization is a big factor. Going from very high to under 30% can raise a score noticeably within a few months.
U mom: my mom is a retired nurse in Detroit and she keeps telling me to buy gold lol. is gold a good idea?
A: Gold can be a small part of a diversified portfolio, but paying off 24.9% debt beats almost any investment.
U: lmao I'll tell her
A: Tell her paying off the card is a guaranteed 24.9% return.

@ s3 2025-08-05T19:45:00-04:00
U job_change: big update: I took a job at Bellhaven Credit Union as an operations analyst, salary is $66,000, they start me on the 18th. how should I use the raise?
A: Congratulations! A common approach: keep your current budget, and send most of the raise to the card until it's gone.
U card2: I'm down to $4,100 on the card, I've been paying $600 a month. If I go to $900 when's it gone?
A: At roughly $900 a month with 24.9% APR, about five months.
U k401_2: Bellhaven matches up to 6% so I set my contribution to 6%, should I roll over the Northwind 401k?
A: Rolling over to the new plan or an IRA keeps things tidy; compare fees first.
U car_loan: ugh and my car loan has 14 months left at $340 a month, should I pay that off early too or the card first?
A: The card first: its rate is far higher than a typical car loan.
U dog: Peanut (my dog) had a vet emergency, $600, I paid it from savings not the card!!
A: That's exactly what the emergency fund is for. Well done keeping it off the card.
U: felt good honestly
A: As it should.
U luis_job: Luis got a raise too, he's a middle school teacher and he's going for Public Service Loan Forgiveness, is that real?
A: PSLF is real: after 120 qualifying payments while working for a qualifying employer, the remaining federal loan balance can be forgiven.

@ s4 2025-10-14T20:00:00-04:00
U ef2: my emergency fund is at $5,800 now, even after Peanut's vet bill. how big should it get before I start investing outside the 401k?
A: Three to six months of essential expenses; for you that's roughly $7,000-14,000.
U move: Luis and I signed a lease in Clintonville, $1,290 for a two-bedroom, we split it 50/50. we move November 1. is splitting 50/50 fair if he earns less?
A: Some couples split proportionally to income instead. Choose what feels fair to both of you and revisit it yearly.
U score2: credit score jumped to 712!! the card is almost gone
A: That's a big jump. Keep the card open with a zero balance to help utilization.
U tax: I got a $1,900 tax refund back in April that I forgot about in my checking, where should it go?
A: Card first if there's any balance left, then the emergency fund.
U: card it is
A: Great.
U insurance: do I need renters insurance at the new place, Luis says his mom's policy covers him
A: His mother's policy won't normally cover a separate household. Get your own renters policy; it's cheap.

@ s5 2026-01-09T18:30:00-05:00
U card_zero: THE CARD IS PAID OFF. $0. what now?
A: Congratulations! Next: finish the emergency fund, then consider a Roth IRA.
U robinhood: should I sell the $800 of Tesla stock in my old Robinhood account to fund the Roth, or keep it?
A: A single stock is concentrated risk. Moving it into a diversified fund inside the Roth is a common choice; note any capital gains.
U roth: I want to open a Roth IRA, can I do that at Ally too or should I use Fidelity?
A: Ally offers IRAs, but many people choose a brokerage like Fidelity for low-cost index funds.
U goal_house: Luis and I want to buy a house in maybe 3 years, we think we need a $40,000 down payment. is that realistic?
A: Saving about $1,100 a month together would get you there in three years.
U car_fix: Correction: my car payment is $310, not $340, I had the insurance mixed into it.
A: Noted, $310 a month for the car.
U mom_visit: my mom's moving from Detroit to Columbus in the spring to be near us, should I help her with a budget too?
A: If she wants help, a simple review of her fixed costs and pension can be a kind gesture.
U bonus: Bellhaven gave me a $2,000 year-end bonus, half to the house fund?
A: Half to the house fund and half to the emergency fund would balance your goals.
U: doing it
A: Nice work, Kayla.
U phone: also switched my phone to Mint Mobile, it's $30 a month now instead of $65, every bit helps right
A: It does: that's $420 a year.
U last: thanks for helping me get out of card debt
A: You did the hard part. Proud of you.
"""

GOLD = {
    "updates": [
        dict(attr="emergency fund", holder="Kayla", orig="ef1", orig_value="$3,200", upd="ef2", upd_value="$5,800",
             q="How much does Kayla have in her emergency fund?", cls="value-in-question"),
        dict(attr="credit card balance", holder="Kayla", orig="card1", orig_value="$7,400", upd="card_zero",
             upd_value="paid off", q="How much does Kayla owe on her credit card?", cls="implicit-attribute"),
        dict(attr="employer", holder="Kayla", orig="snapshot1", orig_value="Northwind", upd="job_change",
             upd_value="Bellhaven", q="Where does Kayla work?", cls="employer-change"),
        dict(attr="salary", holder="Kayla", orig="snapshot1", orig_value="$58,000", upd="job_change",
             upd_value="$66,000", q="What is Kayla's salary?", cls="money"),
        dict(attr="401k contribution", holder="Kayla", orig="k401", orig_value="4%", upd="k401_2", upd_value="6%",
             q="What percentage does Kayla contribute to her 401k?", cls="value-in-question"),
        dict(attr="card APR", holder="Kayla", orig="card1", orig_value="29.4%", upd="apr_fix", upd_value="24.9%",
             q="What is the APR on Kayla's credit card?", cls="correction"),
        dict(attr="credit score", holder="Kayla", orig="score1", orig_value="640", upd="score2", upd_value="712",
             q="What is Kayla's credit score?", cls="count"),
        dict(attr="home", holder="Kayla", orig="rent1", orig_value="German Village", upd="move",
             upd_value="Clintonville", q="Where does Kayla live?", cls="home-change"),
        dict(attr="car payment", holder="Kayla", orig="car_loan", orig_value="$340", upd="car_fix", upd_value="$310",
             q="How much is Kayla's monthly car payment?", cls="correction"),
        dict(attr="phone bill", holder="Kayla", orig="budget", orig_value="$65", upd="phone", upd_value="$30",
             q="How much is Kayla's phone bill?", cls="list-origin"),
        dict(attr="mother's city", holder="Kayla's mom", orig="mom", orig_value="Detroit", upd="mom_visit",
             upd_value="Columbus", q="Where is Kayla's mom going to live?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="only_debt", b="car_loan", holder="Kayla", matter="has debts besides the card",
             q="Does Kayla have any debt besides her credit card?", cls="only-vs-another"),
        dict(a="never_invest", b="robinhood", holder="Kayla", matter="has invested in stocks",
             q="Has Kayla ever invested in stocks?", cls="never-vs-possession"),
    ],
    "facts": [
        dict(t="luis", holder="Luis", holder_terms=["Luis"], other=True, q="How much does Luis owe in student loans?",
             terms=["38,000"], cls="relative"),
        dict(t="mom", holder="Kayla's mom", holder_terms=["mom", "mother"], other=True,
             q="What did Kayla's mom do for work?", terms=["nurse"], cls="relative"),
        dict(t="luis_job", holder="Luis", holder_terms=["Luis"], other=True, q="What is Luis's job?",
             terms=["teacher"], cls="relative"),
        dict(t="ef1", holder="Kayla", q="Which bank holds Kayla's savings?", terms=["Ally"], cls="fact-in-question"),
        dict(t="app", holder="Kayla", q="Which budgeting app does Kayla use?", terms=["YNAB"], cls="fact-in-question"),
        dict(t="dog", holder="Kayla", q="What is the name of Kayla's dog?", terms=["Peanut"], cls="subordinate-clause"),
        dict(t="dog", holder="Kayla", q="How much was Peanut's vet emergency?", terms=["$600"], cls="number"),
        dict(t="snapshot1", holder="Kayla", q="What was Kayla's job at Northwind?", terms=["dispatcher"], cls="subordinate-clause"),
        dict(t="goal_house", holder="Kayla", q="How much down payment do Kayla and Luis think they need?",
             terms=["40,000"], cls="fact-in-question"),
        dict(t="bonus", holder="Kayla", q="How big was Kayla's year-end bonus?", terms=["2,000"], cls="number"),
        dict(t="gym_cancel", holder="Kayla", q="Did Kayla keep her gym membership?", terms=["cancelled"], cls="own-attribute"),
        dict(t="only_debt", holder="Kayla", q="How did Kayla pay off her student loans?", terms=["grandma"],
             cls="subordinate-clause"),
    ],
    "unanswerable": [
        dict(q="What is Luis's credit score?", cls="wrong-person"),
        dict(q="What car does Kayla drive?", cls="absent-attribute"),
        dict(q="How much is Kayla's renters insurance premium?", cls="absent-attribute"),
        dict(q="Where does Kayla's sister bank?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="luis", b="only_debt", matter="Luis's student loans vs Kayla's debts"),
        dict(a="luis_job", b="job_change", matter="Luis's job vs Kayla's job"),
        dict(a="mom", b="snapshot1", matter="mother's city vs Kayla's city"),
    ],
}
