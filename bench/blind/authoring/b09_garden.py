META = dict(id="b09", genre="gardening", title="an allotment garden", user_id="alan.hughes", user_name="Alan")

SCRIPT = """
@ s1 2026-02-14T09:30:00+00:00
U plot1: Got an allotment at last. Plot 17 at Meersbrook, Sheffield. Clay soil. Where to start?
A: Congratulations. Start by clearing weeds and adding plenty of organic matter to open up the clay.
U beds1: Building 2 raised beds this month. Timber or galvanised?
A: Both work. Untreated larch lasts well; galvanised beds last longer but cost more.
U potatoes_never: Never grown potatoes. Worth it on clay?
A: Yes, potatoes actually help break up clay. Earlies like Charlotte are forgiving.
U tomatoes1: Planning 3 tomato varieties in the greenhouse: Sungold, Gardener's Delight, Black Krim. Enough?
A: That's a nice mix of cherry and beefsteak. Three is plenty for a first year.
U neighbour: Margaret on the next plot grows prize dahlias, she says I should dig in manure now. Agree?
A: Yes, well-rotted manure dug in over winter is ideal for clay.
U: Right.
A: Anything else for this month?
U frost1: Last frost round here is usually mid May?
A: In Sheffield the average last frost is around early to mid May. Keep fleece handy.

@ s2 2026-03-21T10:15:00+00:00
U beds2: Made it 4 raised beds in the end, Sue wanted one for cut flowers. Spacing between them?
A: Leave at least 45 cm, or 60 cm if you want a wheelbarrow through.
U wife: Sue does the flowers, I do the veg. She fancies sweet peas. When to sow?
A: Sweet peas can be sown now under cover, or direct in April.
U compost: One compost bin or two?
A: Two: one filling, one rotting down.
U plot_move: Committee offered me a better plot with a shed and water tap, plot 32. Moving over next week. Do I dig it all again?
A: If it has been cultivated, no need. Mulch and plant.
U plot_fix: Correction: it's plot 23, not 32. I wrote the number backwards.
A: Noted, plot 23.
U: Ta.
A: Enjoy the new plot.

@ s3 2026-05-02T08:45:00+01:00
U tomatoes2: Ended up with 5 tomato varieties, Margaret gave me Moneymaker and Shirley seedlings. Greenhouse too crowded?
A: Five can fit if you grow them as single cordons and space them 45 cm apart.
U greenhouse: Greenhouse hit 34 degrees yesterday. Too hot?
A: Above 30 degrees tomatoes can drop flowers. Open vents and damp down the floor.
U frost2: Forecast says frost on 12 May. Hold off planting beans till after?
A: Yes. Runner beans are tender; wait until the frost has passed.
U daughter: Daughter Jess in Bristol wants rhubarb crowns. Can I split mine?
A: Yes, divide in late autumn or early spring with a spade, each piece with a bud.
U slugs: Slugs destroying the lettuce. Beer traps?
A: Beer traps work, and so do night patrols with a torch. Wool pellets help too.
U: Night patrols it is.
A: Good luck.

@ s4 2026-07-18T18:20:00+01:00
U blight: Blight on the potatoes, same as my potatoes last year at the old house. Cut the haulms?
A: Yes, cut the foliage off and bin it, not compost. Leave tubers for two weeks before lifting.
U harvest: First Sungold ripe today. Picked 2 kg of courgettes too.
A: Brilliant. Pick courgettes small to keep them coming.
U margaret_win: Margaret won best dahlia at the Sheffield show again.
A: Well deserved, by the sound of it.
U water: Water butts are empty. Hosepipe ban in Yorkshire from the 25th.
A: Mulch heavily and water in the evening at the roots.
U jess_visit: Jess coming up from Bristol next week with her partner Omar, he's a chef, wants courgette recipes.
A: Courgette fritters and a courgette and lemon pasta will please a chef.
U last: Cheers.
A: Happy harvesting.
"""

GOLD = {
    "updates": [
        dict(attr="allotment plot number", holder="Alan", orig="plot1", orig_value="Plot 17", upd="plot_fix",
             upd_value="plot 23", q="Which plot number is Alan's allotment?", cls="correction"),
        dict(attr="raised beds", holder="Alan", orig="beds1", orig_value="2 raised beds", upd="beds2",
             upd_value="4 raised beds", q="How many raised beds does Alan have?", cls="count"),
        dict(attr="tomato varieties", holder="Alan", orig="tomatoes1", orig_value="3 tomato varieties", upd="tomatoes2",
             upd_value="5 tomato varieties", q="How many tomato varieties is Alan growing?", cls="count"),
        dict(attr="frost date", holder="Alan", orig="frost1", orig_value="mid May", upd="frost2",
             upd_value="12 May", q="When is the next frost expected at Alan's allotment?", cls="paraphrased-attribute"),
    ],
    "contradictions": [
        dict(a="potatoes_never", b="blight", holder="Alan", matter="has grown potatoes before",
             q="Has Alan grown potatoes before?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="plot1", holder="Alan", q="What kind of soil does Alan's allotment have?", terms=["clay"], cls="own-attribute"),
        dict(t="plot1", holder="Alan", q="Which city is Alan's allotment in?", terms=["Sheffield"], cls="own-attribute"),
        dict(t="neighbour", holder="Margaret", holder_terms=["Margaret"], other=True, q="What does Margaret grow?",
             terms=["dahlias"], cls="other-person"),
        dict(t="wife", holder="Sue", holder_terms=["Sue"], other=True, q="What does Sue grow?", terms=["flowers"],
             cls="relative"),
        dict(t="daughter", holder="Jess", holder_terms=["Jess"], other=True, q="Where does Alan's daughter Jess live?",
             terms=["Bristol"], cls="relative"),
        dict(t="greenhouse", holder="Alan", q="How hot did Alan's greenhouse get?", terms=["34"], cls="number"),
        dict(t="harvest", holder="Alan", q="How many courgettes did Alan pick?", terms=["2 kg"], cls="number"),
        dict(t="jess_visit", holder="Omar", holder_terms=["Omar"], other=True, q="What does Jess's partner Omar do?",
             terms=["chef"], cls="relative"),
        dict(t="water", holder="Alan", q="When does the hosepipe ban start?", terms=["25th"], cls="date"),
        dict(t="tomatoes1", holder="Alan", q="Which tomato varieties did Alan plan first?", terms=["Sungold", "Black Krim"],
             cls="list-item"),
    ],
    "unanswerable": [
        dict(q="How much is Alan's allotment rent?", cls="absent-attribute"),
        dict(q="Where does Alan's son live?", cls="wrong-person"),
        dict(q="Which dahlia variety won Margaret the prize?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="daughter", b="plot1", matter="daughter's city vs Alan's city"),
        dict(a="tomatoes1", b="harvest", matter="tomato plans vs courgette harvest"),
    ],
}
