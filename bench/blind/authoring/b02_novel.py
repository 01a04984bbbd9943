META = dict(id="b02", genre="writing", title="novelist's writing project", user_id="imogen.p", user_name="Imogen")

SCRIPT = """
@ s1 2025-10-02T06:10:00+01:00
S: You are a writing coach for fiction writers. Be encouraging but honest, and keep advice practical.
U: Morning! Early writing session before work, thought I'd think out loud with you.
A: Good morning! Happy to be your sounding board. What are you working on?
U title1: It's a literary novel, working title The Salt Orchard, about two sisters running a failing cider farm on the Severn estuary. I'm at about 42,000 words, is that too short to start worrying about structure?
A: Not at all. At 42,000 words you have enough material to see the shape. Many writers do a structural pass around the midpoint.
U chapters1: the draft has 18 chapters and the middle ones are enormous, like 6,000 words each, would splitting them help the pacing?
A: Often, yes. Long middle chapters can sag; splitting at a turn in the scene gives readers a breath.
U protag1: The protagonist is Maren, she's 17, and her aunt is the villain more or less. Maren narrates in first person. Does first person limit me for a two-sister story?
A: It can. You might consider alternating narrators or a close third that can move between the sisters.
U villain: The aunt, Constance, is 54 and owns the land the orchard sits on, so the power imbalance is the whole engine of the plot, does that sound too neat?
A: It is a strong engine. Avoid making Constance purely villainous; give her a reason readers can understand.
U goal: I try to write 1,000 words a day before I cycle to work across Bristol, but some days I manage 200. Is a daily word target actually helpful?
A: For many writers it is, as long as missing it doesn't turn into guilt. A weekly total can be kinder.
U: True. Right, off to work. Thanks!
A: Have a good day!

@ s2 2025-10-16T21:30:00+01:00
U pantser: I've never outlined a book in my life, I'm a total pantser, but everyone online says you can't revise without an outline. Is that rubbish?
A: Plenty of writers discover the story by drafting. A reverse outline after the draft, listing what each chapter does, gives you the benefits without planning ahead.
U translation1: separate thing: I'm translating my first novel, Brackwater, into French myself for a small press in Lyon, and after the first pass I'm at 40%. How long should the revision pass take compared to the first?
A: Revision passes in translation often take as long as the first pass, sometimes longer, because that is where voice gets fixed.
U no_pets: It's just me and my partner Sam in a tiny flat, we're not allowed pets here, so nothing distracts me except Sam's guitar. Would writing in cafés help?
A: Some writers love the background noise of a café. Try it for a week and compare your word counts.
U editor: the editor there, Odile, wants the whole thing by March. She's lovely but terrifying.
A: March is a firm target. Break the remaining chapters into weekly quotas.
U queries1: And on the agent front I've sent out 12 queries for the new book, nothing back yet. Is it normal to wait this long?
A: Yes. Response times of six to twelve weeks are normal, and many agents only reply if interested.
U tom: My critique partner Tom lives in Leicester, we swap chapters every fortnight over email, he says my dialogue is too polite.
A: Polite dialogue is a common note. Let characters interrupt, dodge and say the wrong thing.
U: Ha, he'd love you.
A: He sounds like a good reader.
U sister: My sister Harriet lives in Cardiff and she's reading the draft too, but she keeps saying the older sister is obviously her. Should I worry about that?
A: Family readers often see themselves. If the character is yours, that is what matters, but be kind in how you discuss it.

@ s3 2025-11-05T06:05:00+00:00
U wc2: Update: I'm now sitting at 61,500 words, the sisters finally had the big fight. How do I know when the draft is done?
A: When the central conflict resolves and the ending echoes the beginning. Word count matters less than whether the arc closes.
U chapters2: after splitting the middle I'm up to 22 chapters, is that too many for a novel this size?
A: Twenty-two chapters at around 80,000 words is quite normal.
U protag2: Also I've renamed Maren to Ilse, Maren felt too soft for someone that stubborn. Is it weird to rename a character this late?
A: It is very common. Use find and replace carefully, and read the first chapters aloud to hear the new name.
U tom_fix: Correction: Tom is in Leeds, not Leicester. I always mix those two up.
A: Noted, Leeds.
U contest1: there's a prize for unpublished manuscripts, the Severn Prize, deadline 31 May, do I submit the first 5,000 words or a synopsis?
A: Check the rules; most prizes ask for an opening extract plus a one-page synopsis.
U: the rules say both, ugh, synopses are my nemesis
A: Start with one sentence per chapter; then cut down to a page.
U synopsis: Ok here's a draft of the first paragraph of the synopsis, Ilse is 17 and wants the farm, her sister Bea wants out. too flat?
A: Add the stakes: what happens to the farm, and to them, if neither gives way.

@ s4 2025-12-10T20:45:00+00:00
U translation2: Good news: the translation is now 70% done and Odile liked the sample chapters.
A: That's great progress. Keep the momentum into the new year.
U outline_past: Bit of a wobble today. When I did the big outline for Brackwater on index cards it took me a month, so I'm scared of doing a reverse outline for this one. Is there a faster way?
A: Yes: one line per chapter in a spreadsheet, only what happens and what changes. It can take an evening.
U queries2: That's 19 queries out now, with two full manuscript requests! what do I do if both want it?
A: Let each know another agent has the full. If one offers, tell the other and give them a week or two.
U title2: Oh and I've retitled it Tidewater Girls, The Salt Orchard sounded like a candle. Should the query letters use the new title?
A: Yes, for any new queries. The agents who requested the full should get a short note with the new title.
U pen_name: I might publish under I. M. Pryce rather than Imogen, my day job is in the council planning office and I'd rather keep it separate. Good idea?
A: A pen name that is close to your own is easy to manage. Tell your agent early.
U: planning office by day, cider farm by night lol
A: A good combination. Planning disputes are excellent material.
U cat: My cat Marmalade walked across the keyboard and deleted a whole paragraph of the fight scene, is there a way to recover it in Scrivener?
A: Check Scrivener's snapshots and automatic backups; the backup folder keeps zipped copies of recent versions.

@ s5 2026-01-20T07:00:00+00:00
U move: We've moved to Bath at last, the flat in Bristol was too small, and now I have a proper writing desk. How do I rebuild a routine after a move?
A: Pick a fixed start time and a small target for the first two weeks, then build back up.
U contest2: The Severn Prize people have extended the deadline to 14 June because of a website problem. Should I use the extra time or just send it?
A: Use a bit of it for one more revision of the opening pages, then send it well before the new date.
U tom_visit: Tom came down from Leeds for a weekend and we went through the ending line by line, he thinks the last chapter should be from Bea's point of view. risky?
A: Switching point of view for the last chapter can be powerful if you set it up earlier.
U beta: I've got three beta readers lined up for February: Harriet, Tom and a woman from my Bath writing group called Priya. What should I ask them?
A: Ask where they got bored, what confused them and which character they'd follow anywhere.
U wc3: how long should beta readers get for a 78,000-word draft?
A: Four to six weeks is reasonable.
U sam_job: Sam got a job at the Roman Baths museum, which is partly why we moved, so now we both walk to work. any tips for writing on a lunch break?
A: Keep a single scene open and write by hand if needed; twenty minutes adds up.
U: ok. feeling good about this.
A: You should. You've come a long way since October.

@ s6 2026-03-02T21:15:00+00:00
U agent_offer: An agent offered! Her name is Wren Achebe at Calloway & Finch. The other full is still out, what do I say to them?
A: Congratulations! Email the other agent that you have an offer and give a deadline, usually one to two weeks.
U translation3: And I sent Odile the finished translation on Friday, exactly on time. Is it normal to feel completely empty afterwards?
A: Very normal. Give yourself a few days before starting the next thing.
U harriet_baby: Harriet is having a baby in May so she says she can't read anything else this year, fair enough.
A: Perfectly fair. Send her flowers instead of chapters.
U priya: Priya from the writing group said the middle still drags in chapters 9 to 12, is it worth another pass before the agent sees the revision?
A: If two readers flag the same stretch, yes. Tighten before you send.
U last: Thank you for all the help this winter, I'll probably be back when edits land.
A: Good luck, Imogen. Enjoy the offer.
"""

GOLD = {
    "updates": [
        dict(attr="draft word count", holder="Imogen", orig="title1", orig_value="42,000", upd="wc3",
             upd_value="78,000", q="How many words is Imogen's novel draft?", cls="value-in-question"),
        dict(attr="chapter count", holder="Imogen", orig="chapters1", orig_value="18 chapters", upd="chapters2",
             upd_value="22 chapters", q="How many chapters does Imogen's draft have?", cls="count"),
        dict(attr="protagonist name", holder="Imogen", orig="protag1", orig_value="Maren", upd="protag2",
             upd_value="Ilse", q="What is the name of the protagonist of Imogen's novel?", cls="name-change"),
        dict(attr="translation progress", holder="Imogen", orig="translation1", orig_value="40%",
             upd="translation2", upd_value="70%", q="How far along is Imogen's French translation of Brackwater?",
             cls="implicit-attribute"),
        dict(attr="queries sent", holder="Imogen", orig="queries1", orig_value="12 queries", upd="queries2",
             upd_value="19 queries", q="How many agent queries has Imogen sent?", cls="count"),
        dict(attr="critique partner's city", holder="Tom", orig="tom", orig_value="Leicester", upd="tom_fix",
             upd_value="Leeds", q="Where does Imogen's critique partner Tom live?", cls="correction"),
        dict(attr="contest deadline", holder="Imogen", orig="contest1", orig_value="31 May", upd="contest2",
             upd_value="14 June", q="When is the Severn Prize deadline?", cls="deadline"),
        dict(attr="novel title", holder="Imogen", orig="title1", orig_value="The Salt Orchard", upd="title2",
             upd_value="Tidewater Girls", q="What is the title of Imogen's novel?", cls="paraphrased-attribute"),
        dict(attr="home city", holder="Imogen", orig="goal", orig_value="Bristol", upd="move",
             upd_value="Bath", q="Where does Imogen live?", cls="home-change"),
    ],
    "contradictions": [
        dict(a="pantser", b="outline_past", holder="Imogen", matter="ever outlined a book",
             q="Has Imogen ever outlined a novel?", cls="never-vs-past-event"),
        dict(a="no_pets", b="cat", holder="Imogen", matter="has a pet",
             q="Does Imogen have a pet?", cls="negation-vs-possession"),
    ],
    "facts": [
        dict(t="sister", holder="Harriet", holder_terms=["Harriet"], other=True, q="Where does Imogen's sister Harriet live?",
             terms=["Cardiff"], cls="relative"),
        dict(t="villain", holder="Constance", holder_terms=["Constance"], other=True, q="How old is the aunt Constance in the novel?",
             terms=["54"], cls="other-person"),
        dict(t="goal", holder="Imogen", q="What is Imogen's daily word target?", terms=["1,000"], cls="fact-in-question"),
        dict(t="editor", holder="Odile", holder_terms=["Odile"], other=True, q="When does the editor Odile want the translation?",
             terms=["March"], cls="other-person"),
        dict(t="translation1", holder="Imogen", q="Where is the press publishing Imogen's French translation?",
             terms=["Lyon"], cls="subordinate-clause"),
        dict(t="pen_name", holder="Imogen", q="Where does Imogen work during the day?", terms=["planning"],
             cls="subordinate-clause"),
        dict(t="pen_name", holder="Imogen", q="What pen name might Imogen publish under?", terms=["Pryce"],
             cls="fact-in-question"),
        dict(t="cat", holder="Imogen", q="What is the name of Imogen's cat?", terms=["Marmalade"], cls="subordinate-clause"),
        dict(t="agent_offer", holder="Wren Achebe", holder_terms=["Wren"], other=True,
             q="Which agency does the agent who offered work at?", terms=["Calloway"], cls="other-person"),
        dict(t="no_pets", holder="Sam", holder_terms=["Sam"], other=True, q="What is the name of Imogen's partner?",
             terms=["Sam"], cls="relative"),
        dict(t="sam_job", holder="Sam", holder_terms=["Sam"], other=True, q="Where does Sam work?",
             terms=["Roman Baths"], cls="relative"),
        dict(t="harriet_baby", holder="Harriet", holder_terms=["Harriet"], other=True, q="When is Harriet's baby due?",
             terms=["May"], cls="relative"),
        dict(t="beta", holder="Priya", holder_terms=["Priya"], other=True, q="Who are Imogen's beta readers?",
             terms=["Harriet", "Tom", "Priya"], cls="list-item"),
        dict(t="synopsis", holder="Bea", holder_terms=["Bea"], other=True, q="What does Ilse's sister Bea want?",
             terms=["out"], cls="other-person"),
    ],
    "unanswerable": [
        dict(q="How old is Imogen?", cls="absent-attribute"),
        dict(q="Where does Imogen's brother live?", cls="wrong-person"),
        dict(q="How much was Imogen's advance for Brackwater?", cls="absent-attribute"),
        dict(q="What is the name of Imogen's dog?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="protag1", b="villain", matter="protagonist age vs aunt age"),
        dict(a="title1", b="chapters1", matter="draft length vs chapter length"),
        dict(a="sister", b="move", matter="sister's city vs Imogen's city"),
    ],
}
