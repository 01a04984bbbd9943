META = dict(id="b01", genre="legal", title="tenant dispute", user_id="rdelgado", user_name="Rosa")

SCRIPT = """
@ s1 2026-01-06T19:40:00-05:00
S: You are a legal information assistant. You explain United States tenant law in general terms, you are not a lawyer, and you point people to a tenant union or a local attorney for their specific case.
U intro: hi. so I rent a one-bedroom in Providence, unit 4B, and my landlord Mr. Hadley just told me the rent is going from $1,450 to $1,700 when the lease renews. is that even legal in Rhode Island?
A: Rhode Island has no statewide rent control, so a landlord can usually raise the rent at renewal, but he has to give you proper written notice first. How and when did he tell you?
U notice: he slid a letter under my door on january 2nd saying the new amount starts march 1. thats less than 60 days isnt it
A: January 2 to March 1 is 58 days. For a month-to-month tenancy in Rhode Island the notice rules differ from a fixed-term lease, so it matters which kind you have. Do you still have a lease in force?
U lease_start: The lease I signed started in July 2023, it was a one-year lease and then it just rolled month to month I think? I'd have to dig it out of the closet.
A: If it converted to month-to-month, look for a renewal or holdover clause in it. Bring the lease to any meeting with a tenant advocate.
U mold1: also there's been mold on the bathroom ceiling since the fall and i've sent him 3 emails about it with photos, he never answered a single one. does that matter for the rent thing?
A: It can. Unanswered repair requests are exactly the kind of record that helps if the rent increase looks like retaliation or if you later ask a court for relief. Keep every email and photo.
U sister: My sister Dana lives in Worcester and she had something similar, her landlord had to fix it within 20 days after the city inspector came out. is it the same here?
A: Massachusetts has its own sanitary code and inspection process. In Providence you can ask the city's housing inspectors to come out; the deadline they set depends on the violation.
U deposit: ok. my security deposit was $2,900, basically two months up front, was he even allowed to take that much?
A: Rhode Island caps security deposits at one month's rent, so a two-month deposit is worth raising with an advocate.
U job: I work at Ocean State Bakery as a shift lead so I cant really take days off for court stuff. are housing hearings ever in the evening?
A: Housing court calendars are usually during business hours. Some courts allow remote appearances; ask the clerk once you have a date.
U: thanks thats a lot. i'll look for the lease this weekend
A: Good plan. When you find it, check the term, the renewal clause and anything about notice.

@ s2 2026-01-19T21:05:00-05:00
U: found the lease!! ok so it says month to month after the first year, and it says landlord has to give "written notice consistent with state law"
A: That points to the statutory notice period for a month-to-month tenancy. A tenant advocate can tell you exactly how many days apply.
U never_withheld: I'm nervous because I've never withheld rent in my life, I always pay on the first, and my friend said I should hold back the increase until the mold is fixed. is that a terrible idea?
A: Withholding without following the state's procedure can put you at risk of an eviction for nonpayment. Rhode Island has a specific repair-and-deduct and escrow process; talk to an advocate before you hold anything back.
U boyfriend: My boyfriend Marco moved in with me in December, does he need to be on the lease or can the landlord use that against me?
A: Many leases limit occupants or require the landlord's consent for a new adult resident. Check the occupancy clause; adding him in writing is usually the safest route.
U neighbor: the guy in 4C told me he pays $1,600 for the exact same layout, so is my increase maybe just market rate?
A: Market comparisons matter for negotiation, but they do not change the notice rules. It is reasonable to negotiate.
U cat: oh and I have a cat, Pimiento, and the lease technically says no pets, but Hadley has seen her like 5 times and never said anything. could he suddenly use that?
A: A landlord who knowingly accepted a pet for a long time may have a harder time enforcing the clause, but it is not a guarantee. Keep any messages where he acknowledged the cat.
U: ugh ok. I'll call the tenant union tomorrow
A: That is a good next step.

@ s3 2026-02-04T18:30:00-05:00
U: quick update, the tenant union lady was super helpful
A: Glad to hear it. What did she suggest?
U hearing1: So I filed a complaint about the mold and the deposit, and the hearing is set for March 12. what should I bring?
A: Bring the lease, every email about the mold with dates, the photos, proof of the deposit payment and the rent notice. A simple timeline on one page helps too.
U mold2: I emailed him again on the 29th and yesterday, so that's 6 emails about the mold now and still no reply, should I print all of them?
A: Yes, print them in date order and highlight the dates. Six unanswered requests are a clear pattern.
U deposit_storage: unrelated but the storage place down the street wants a $50 deposit for a 5x5 unit, is that normal? I want to move some boxes out before any inspection
A: A small refundable deposit for a storage unit is common. Read the contract for late fees.
U inspector: the city inspector came on feb 2 and wrote up the bathroom ceiling and a broken smoke detector, does that change anything?
A: An inspector's report is strong evidence. It usually gives the owner a deadline to correct the violations.
U: ok this is helping my anxiety a lot honestly
A: You're doing the right things, and documenting as you go.
U timeline: can you help me make the timeline? lease signed, rent notice on jan 2, mold since october, emails, inspection feb 2
A: Sure:
  - Lease start (check the exact month on the lease)
  - October 2025: mold appears
  - January 2, 2026: rent increase notice
  - Repair emails (list each date)
  - February 2, 2026: city inspection
  - Hearing date
U lease_fix: Correction: the lease started in August 2023, not July. I was looking at the date I paid the deposit.
A: Thanks, I will use August 2023 as the lease start on the timeline.

@ s4 2026-02-27T12:15:00-05:00
U sold: big news, Hadley sold the building!! the new owner is Crestline Property Group and they sent a letter saying all rent goes to them starting march. does my complaint still count?
A: A sale does not erase your complaint, but the new owner may need to be named. Tell the court clerk and the tenant union about the sale.
U hearing2: also the court moved the hearing to April 2 because of the sale, which is honestly fine
A: That gives you more time to prepare. Send the new owner a copy of your repair requests too.
U crestline_office: Crestline's office is in Cranston, should I go there in person to drop off copies or is email fine?
A: Email with a read receipt plus a copy by certified mail gives you proof either way.
U dana_move: Dana (my sister) is actually moving to Boston next month for a new job, so she offered to help me with the court stuff over video, can family come to hearings?
A: Hearings are generally public. She can attend, and a support person is usually welcome, though she cannot speak for you unless she is a lawyer.
U new_job: Now that I started at Miriam Hospital in the billing office I actually get PTO, so should I just take the whole day of the hearing off?
A: Taking the whole day is wise; hearings often run late.
U: ok. I'll write to Crestline tonight
A: Good. Keep it short and factual.

@ s5 2026-03-18T20:40:00-04:00
U rent_new: Crestline sent the new lease, it says $1,525 a month instead of the $1,700 Hadley wanted, is it a good idea to sign before the hearing?
A: That is a smaller increase. Whether to sign before the hearing is a question for the advocate, because signing may affect what you are asking the court for.
U withheld_2022: my old landlord in Pawtucket was way worse tbh, back when I withheld rent in 2022 over the broken heater he threatened to change the locks, so Crestline seems fine
A: Changing the locks without a court order is illegal in Rhode Island. It is good that the new owner seems more reasonable.
U marco_lease: Marco wants to be added to the new lease, and he works nights at the Amtrak station, do they need his pay stubs?
A: Landlords usually ask every adult on a lease for income proof. Pay stubs or an offer letter should do.
U mold3: they fixed the smoke detector already but the mold guy is coming on the 25th
A: Good progress. Keep a note of when each repair was done.
U deposit_back: the tenant union says i should ask for the extra deposit back, the part above one month, so like $1,450 back? or is it based on the new rent
A: The excess is usually computed against the rent when the deposit was taken. Ask the advocate to confirm the amount.
U: ok thank you!! I'll keep you posted
A: Good luck with the hearing.

@ s6 2026-04-03T17:10:00-04:00
U result: hearing went ok, the judge gave Crestline 30 days to fix the mold completely and ordered them to return the excess deposit
A: That is a good outcome. Put the 30-day deadline in your calendar.
U deadline: the 30 days ends May 2, what happens if they miss it?
A: You can go back to the court and report that the order was not followed.
U signed: I signed the $1,525 lease yesterday with Marco on it too
A: Congratulations, and keep a copy of the signed lease.
U mold_done: the mold company finished on april 28, they replaced the drywall and put in a fan. should I get something in writing that its done?
A: Yes. Ask Crestline for the contractor's invoice or a completion note, and take dated photos of the finished ceiling.
U refund: and the deposit refund came through, a check for $1,450, so I guess that's settled?
A: If the amount matches the court's order, that part is settled. Deposit the check and keep a copy.
U renters_ins: last thing, Crestline wants proof of renters insurance by june 1, is $14 a month a normal price for that?
A: That is within the usual range for a one-bedroom. Compare the coverage limits, not just the price.
U: thanks for all the help honestly
A: You're welcome, Rosa.
"""

GOLD = {
    "updates": [
        dict(attr="monthly rent", holder="Rosa", orig="intro", orig_value="$1,450", upd="rent_new",
             upd_value="$1,525", q="How much is Rosa's monthly rent?", cls="money"),
        dict(attr="lease start month", holder="Rosa", orig="lease_start", orig_value="July 2023",
             upd="lease_fix", upd_value="August 2023", q="When did Rosa's lease start?", cls="correction"),
        dict(attr="mold emails sent", holder="Rosa", orig="mold1", orig_value="3 emails", upd="mold2",
             upd_value="6 emails", q="How many emails has Rosa sent her landlord about the mold?",
             cls="count"),
        dict(attr="hearing date", holder="Rosa", orig="hearing1", orig_value="March 12", upd="hearing2",
             upd_value="April 2", q="When is Rosa's housing court hearing?", cls="deadline"),
        dict(attr="landlord", holder="Rosa", orig="intro", orig_value="Hadley", upd="sold",
             upd_value="Crestline", q="Who is Rosa's landlord?", cls="name-change"),
        dict(attr="employer", holder="Rosa", orig="job", orig_value="Ocean State Bakery", upd="new_job",
             upd_value="Miriam Hospital", q="Where does Rosa work?", cls="employer-change"),
        dict(attr="sister's city", holder="Dana", orig="sister", orig_value="Worcester", upd="dana_move",
             upd_value="Boston", q="Where is Rosa's sister Dana moving?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="never_withheld", b="withheld_2022", holder="Rosa", matter="ever withheld rent",
             q="Has Rosa ever withheld rent?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="intro", holder="Rosa", q="Which city does Rosa live in?", terms=["Providence"], cls="own-attribute"),
        dict(t="intro", holder="Rosa", q="What is Rosa's apartment unit number?", terms=["4B"], cls="fact-in-question"),
        dict(t="sister", holder="Dana", holder_terms=["Dana"], other=True, q="Where does Rosa's sister Dana live?",
             terms=["Worcester"], cls="relative"),
        dict(t="deposit", holder="Rosa", q="How much was Rosa's security deposit?", terms=["2,900"], cls="fact-in-question"),
        dict(t="boyfriend", holder="Marco", holder_terms=["Marco"], other=True, q="What is the name of Rosa's boyfriend?",
             terms=["Marco"], cls="relative"),
        dict(t="marco_lease", holder="Marco", holder_terms=["Marco"], other=True, q="Where does Marco work?",
             terms=["Amtrak"], cls="other-person"),
        dict(t="neighbor", holder="neighbor in 4C", holder_terms=["4C"], other=True,
             q="How much rent does the tenant in 4C pay?", terms=["1,600"], cls="other-person"),
        dict(t="cat", holder="Rosa", q="What is the name of Rosa's cat?", terms=["Pimiento"], cls="subordinate-clause"),
        dict(t="inspector", holder="Rosa", q="What did the city inspector write up?", terms=["smoke detector"],
             cls="fact-in-question"),
        dict(t="crestline_office", holder="Crestline", holder_terms=["Crestline"], other=True,
             q="Where is Crestline's office?", terms=["Cranston"], cls="other-person"),
        dict(t="renters_ins", holder="Rosa", q="How much does Rosa's renters insurance cost?", terms=["$14"], cls="fact-in-question"),
        dict(t="deadline", holder="Rosa", q="When does the 30-day repair deadline end?", terms=["May 2"], cls="date"),
        dict(t="withheld_2022", holder="Rosa", q="In which city did Rosa rent before Providence?",
             terms=["Pawtucket"], cls="subordinate-clause"),
    ],
    "unanswerable": [
        dict(q="How much does Rosa earn at the hospital?", cls="absent-attribute"),
        dict(q="Where does Rosa's brother live?", cls="wrong-person"),
        dict(q="What breed is Rosa's dog?", cls="absent-attribute"),
        dict(q="What is the name of Rosa's lawyer?", cls="absent-attribute"),
    ],
    "non_conflicts": [
        dict(a="deposit", b="deposit_storage", matter="security deposit vs storage unit deposit"),
        dict(a="intro", b="neighbor", matter="Rosa's rent vs neighbour's rent"),
        dict(a="sister", b="intro", matter="sister's city vs Rosa's city"),
    ],
}
