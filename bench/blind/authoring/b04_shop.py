META = dict(id="b04", genre="small-shop", title="a small online print shop", user_id="jun.takeda", user_name="Jun")

SCRIPT = """
@ s1 2025-08-04T14:20:00-07:00
S: You are an assistant for independent online sellers. Give concrete, practical advice on pricing, listings, shipping and marketing.
U: hey, quick one
A: Sure, what's up?
U sold1: i opened an etsy shop for my risograph prints three weeks ago and ive only sold 4 of the prints so far, is that normal??
A: Very normal for a new shop. Most shops take a few months to build search ranking and repeat buyers.
U price1: they're $18 each for the 8x10s, too cheap? too expensive? i have no idea
A: $18 is on the low side for hand-printed riso work. Many sellers charge $22-30 for an 8x10.
U shopname1: the shop is called Paper Heron btw, i live in tucson and most of my stuff is desert birds
A: Paper Heron is a memorable name, and desert birds are a good niche.
U listings1: i have 12 listings up rn. should i add more before i fix the photos or the other way round
A: Fix the photos first: better photos on 12 listings beat weak photos on 30.
U: ok photos first
A: Natural light, a plain background and one photo showing the print in a frame.
U paper: my paper supplier is in portland, they charge $9 shipping per ream which kills my margin, any ideas
A: Order in bulk less often, or ask if they have a flat-rate option for larger orders.

@ s2 2025-08-21T21:05:00-07:00
U a3_price: i added A3 posters at $30, they're the big flamingo and roadrunner designs. does a3 vs 8x10 confuse americans lol
A: It can. List both the metric name and the inches (about 11.7 x 16.5 in).
U stickers: also sold 40 stickers at the farmers market on saturday!! they're $4 each, is that a good add-on?
A: Stickers are a great add-on: cheap to make, easy to ship, and they bring people into the shop.
U never_fair: i've never sold at a craft fair, only the farmers market table, are craft fairs worth the booth fee?
A: They can be, especially juried holiday fairs. Go as a visitor to one first and count the crowd.
U partner: my boyfriend Eli does the photos, he's a wedding photographer so he's kind of overqualified for this lmao
A: That's a huge advantage. Ask him for a consistent lighting setup you can reuse.
U a3_fix: Correction: the A3 prints are $35 not $30, I typed it wrong in the listing too, ugh
A: Good catch. Update the listing and any social posts with $35.
U ship: what's the cheapest way to ship a print flat? rn im using $6 rigid mailers
A: Rigid mailers via USPS Ground Advantage are usually cheapest for flat prints under a pound.
U: ok cool
A: Let me know how the photo reshoot goes.

@ s3 2025-09-15T10:40:00-07:00
U listings2: photos are redone!! and i'm up to 27 listings now, do i need to renew the old ones or does etsy do that
A: Listings auto-renew only if you set them to. Check the renewal setting on each one.
U sold2: sales are picking up, 31 sales total now, mostly the gila woodpecker print. should i make more variants of that one?
A: Yes. A bestseller is a signal: try two colour variants and a smaller size.
U price2: i bumped the 8x10 prices to $22 like you said and nobody complained, should i go higher?
A: Watch conversion for a few weeks at $22 before moving again.
U review: got my first 1-star review, the print arrived bent. i'm crying a little. do i reply?
A: Reply briefly and kindly, offer a replacement, and mention the improved packaging. Buyers read replies.
U eli_job: eli got hired as staff photographer at the arizona daily star so he's less free on weekends now, i might need to learn to shoot my own stuff
A: A simple lightbox and a phone on a tripod will get you most of the way.
U sister: my sister Mika has a ceramics shop in Oakland and she said i should do wholesale to gift shops. what's a normal wholesale price?
A: Wholesale is usually about half of retail. At $22 retail, around $11 per print.
U: oof thats thin
A: It is; wholesale works when the print costs you a few dollars.

@ s4 2025-10-30T19:15:00-07:00
U craft_fair: ok so last time I did the craft fair in Phoenix I basically broke even after the booth fee, is the tucson holiday market worth trying?
A: A local market saves travel and lodging, so break-even in Phoenix may become a profit at home.
U market_fee: the holiday market booth is $180 for two days, is that high?
A: That's typical for a juried holiday market.
U shopname2: also I'm renaming the shop to Heron & Ink because I'm adding linocut cards. will I lose my reviews if I rename on etsy?
A: No, your reviews and sales history stay with the shop when you change its name.
U costs: my costs per 8x10 print are about $3.10 with paper and ink, plus the mailer, does $22 still work with etsy fees?
A: Yes. After fees and the mailer you should still keep around $10-12 per print.
U supplier_move: the portland paper place closed so I'm switching to a supplier in Albuquerque, they ship for free over $100
A: Free shipping over $100 could save you a lot if you order in bulk.
U: yay
A: Good luck with the holiday market!

@ s5 2025-12-20T22:30:00-07:00
U market_result: holiday market went great!! sold 60 prints over the two days and ran out of the roadrunner one
A: That's a fantastic result! Note which designs sold out so you can print more next time.
U stickers2: stickers flew too, I'm raising them to $5 now, is that ok?
A: $5 is a common price for a good vinyl sticker.
U mika_visit: Mika came down from Oakland to help at the booth, she wants to do a joint booth next year
A: A joint booth splits the fee and brings two audiences.
U taxes: do I have to charge sales tax on etsy sales in arizona?
A: Etsy collects and remits sales tax for you in Arizona, but in-person sales at markets are your responsibility. Check the Arizona transaction privilege tax rules.
U wholesale: a gift shop at the desert museum wants 50 prints wholesale at $11, should i take it
A: If your cost is about $3 per print, $11 is a decent margin, and the shop is great exposure.
U: i'm taking it
A: Congratulations!
U goal: next year's goal is 500 sales, is that crazy?
A: Ambitious but possible with a steady listing schedule and two or three markets.
U last: thanks for helping me all year
A: Any time, Jun. Enjoy the holidays.
"""

GOLD = {
    "updates": [
        dict(attr="prints sold", holder="Jun", orig="sold1", orig_value="4 of the prints", upd="sold2",
             upd_value="31 sales", q="How many sales has Jun's shop made?", cls="value-in-question"),
        dict(attr="8x10 price", holder="Jun", orig="price1", orig_value="$18", upd="price2", upd_value="$22",
             q="How much does Jun charge for an 8x10 print?", cls="money"),
        dict(attr="shop name", holder="Jun", orig="shopname1", orig_value="Paper Heron", upd="shopname2",
             upd_value="Heron & Ink", q="What is the name of Jun's shop?", cls="name-change"),
        dict(attr="listing count", holder="Jun", orig="listings1", orig_value="12 listings", upd="listings2",
             upd_value="27 listings", q="How many listings does Jun's shop have?", cls="count"),
        dict(attr="A3 price", holder="Jun", orig="a3_price", orig_value="$30", upd="a3_fix", upd_value="$35",
             q="How much are Jun's A3 prints?", cls="correction"),
        dict(attr="paper supplier location", holder="Jun", orig="paper", orig_value="portland", upd="supplier_move",
             upd_value="Albuquerque", q="Where is Jun's paper supplier?", cls="paraphrased-attribute"),
        dict(attr="Eli's employer", holder="Eli", orig="partner", orig_value="wedding photographer", upd="eli_job",
             upd_value="Arizona Daily Star", q="Where does Jun's boyfriend Eli work?", cls="employer-change"),
        dict(attr="sticker price", holder="Jun", orig="stickers", orig_value="$4", upd="stickers2", upd_value="$5",
             q="How much are Jun's stickers?", cls="money"),
    ],
    "contradictions": [
        dict(a="never_fair", b="craft_fair", holder="Jun", matter="ever sold at a craft fair",
             q="Has Jun ever sold at a craft fair?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="shopname1", holder="Jun", q="Where does Jun live?", terms=["Tucson"], cls="subordinate-clause"),
        dict(t="shopname1", holder="Jun", q="What subject are most of Jun's prints?", terms=["desert birds"], cls="subordinate-clause"),
        dict(t="sister", holder="Mika", holder_terms=["Mika"], other=True, q="Where is Jun's sister Mika's shop?",
             terms=["Oakland"], cls="relative"),
        dict(t="sister", holder="Mika", holder_terms=["Mika"], other=True, q="What does Jun's sister Mika sell?",
             terms=["ceramics"], cls="relative"),
        dict(t="partner", holder="Eli", holder_terms=["Eli"], other=True, q="Who takes the photos for Jun's shop?",
             terms=["Eli"], cls="relative"),
        dict(t="sold2", holder="Jun", q="Which of Jun's prints sells best?", terms=["gila woodpecker"], cls="fact-in-question"),
        dict(t="market_fee", holder="Jun", q="How much is the holiday market booth?", terms=["$180"], cls="fact-in-question"),
        dict(t="costs", holder="Jun", q="What does an 8x10 print cost Jun to make?", terms=["3.10"], cls="fact-in-question"),
        dict(t="market_result", holder="Jun", q="How many prints did Jun sell at the holiday market?", terms=["60"],
             cls="number"),
        dict(t="wholesale", holder="desert museum gift shop", holder_terms=["museum"], other=True,
             q="How many prints does the desert museum gift shop want?", terms=["50"], cls="other-person"),
        dict(t="goal", holder="Jun", q="What is Jun's sales goal for next year?", terms=["500"], cls="fact-in-question"),
        dict(t="ship", holder="Jun", q="What does Jun use to ship prints?", terms=["rigid mailers"], cls="fact-in-question"),
    ],
    "unanswerable": [
        dict(q="How much does Eli earn at the newspaper?", cls="absent-attribute"),
        dict(q="Where does Jun's brother live?", cls="wrong-person"),
        dict(q="What is Jun's Instagram handle?", cls="absent-attribute"),
        dict(q="How many ceramics did Mika sell at the holiday market?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="price1", b="a3_price", matter="8x10 price vs A3 price"),
        dict(a="sold2", b="stickers", matter="print sales vs sticker sales"),
        dict(a="sister", b="shopname1", matter="sister's city vs Jun's city"),
    ],
}
