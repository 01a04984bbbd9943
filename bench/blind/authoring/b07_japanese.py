META = dict(id="b07", genre="language-learning", title="learning Japanese", user_id="nora.k", user_name="Nora")

SCRIPT = """
@ s1 2025-07-07T07:15:00-05:00
U: hi!! i need a study plan for japanese
A: Happy to help! Tell me where you are now and what your goal is.
U start: ive been on duolingo for a while, my streak is 45 days, and i finished hiragana and katakana. i want to take the JLPT N5 in december, realistic?
A: Very realistic. Five months is enough for N5 with steady daily study.
U never_japan: ive never been to japan but we're planning a trip for april 10 next year, thats the real motivation lol
A: A trip is a great motivator! By April you could handle simple conversations.
U vocab1: i know maybe 800 words? do i need more for N5
A: N5 needs roughly 800 words and about 100 kanji, so you're close on vocabulary already.
U kanji1: kanji is the scary part, i know like 120
A: That's actually more than N5 needs. Keep reviewing with spaced repetition.
U book: im using genki 1 and an anki deck, is that enough or do i need a tutor
A: Genki plus Anki covers reading and vocab well. A tutor helps most with speaking.
U exam1: the exam is on december 1 in chicago, the closest test site to minneapolis
A: Book early; the Chicago site fills up. Plan for travel the day before.
U: ok
A: Want a weekly schedule?
U schedule: yes. i can do about 5 hours a week, mostly 6am before work, i'm a ux designer at target so evenings are dead
A: Here's a split:
  - Mon/Wed/Fri 45 min Genki
  - Tue/Thu 30 min Anki + listening
  - Sat 60 min review
  - Sun rest

@ s2 2025-07-24T06:40:00-05:00
U husband: my husband Dev is learning korean at the same time lol, he uses talk to me in korean and his duolingo streak is 200 days. any tips for two people learning different languages in one house
A: Study side by side at the same time, and teach each other one phrase a day. It keeps both of you accountable.
U no_other: i dont speak any other languages so this is all new for me, is that a disadvantage?
A: Not really. Many people learn Japanese as their first foreign language.
U tutor1: i found a tutor on italki, Aiko, she's from osaka, $22 an hour. good price?
A: That's a typical rate for a professional tutor on italki.
U particles: wa vs ga is killing me
A: Try this: wa marks the topic (what we're talking about), ga marks the subject that does or is something, often new information.
U: hmm kinda
A: Let's do five example sentences together next time.
U exam_fix: correction: the exam is december 7 not december 1, i looked at the wrong year
A: Thanks, December 7 in Chicago.
U penpal: my friend Yuki lives in Kyoto and wants to do language exchange on zoom, she wants english practice. good idea?
A: Great idea: split the time 50/50 between Japanese and English.

@ s3 2025-09-02T06:30:00-05:00
U streak2: my streak hit 112 days!! but i feel like duolingo isnt enough anymore
A: That's a great streak. At this point Duolingo works best as a warm-up; move your main study to Genki and speaking.
U vocab2: i counted my anki deck and its 1,450 words now, is that overkill for N5?
A: It's beyond N5. That's a good foundation for N4.
U target2: honestly i might switch my goal to N4 in december instead, is that too ambitious with 3 months left?
A: It's ambitious but possible with 1,450 words. You'd need to push grammar hard.
U tutor2: aiko stopped taking students so my new tutor is Haruto, he's in tokyo and more structured. he wants me to do 8 hours a week
A: Eight hours a week is a solid jump. Protect your 6am slot and add a weekend block.
U hours2: ok so 8 hours a week it is, can you redo the schedule?
A: Sure:
  - weekday mornings 60 min
  - Saturday 2 h
  - Sunday 1 h
U: perfect
A: Let's check in after two weeks.
U keigo: haruto keeps correcting my keigo, is it normal to struggle with polite forms?
A: Very normal. Keigo is hard even for native speakers in formal settings.

@ s4 2025-10-20T07:05:00-05:00
U kanji2: i'm at 300 kanji now, thanks to wanikani. should i keep going or focus on grammar for N4?
A: For N4 you need about 300 kanji, so shift focus to grammar and listening now.
U trip2: we moved the trip to may 3 because dev's work conference is in april, is golden week a bad idea?
A: Golden Week is very crowded. If you can, start after May 6, or book everything early.
U second_time: Dev says this will be my second time in japan, and yeah technically i went to osaka for a work trip in 2019 but i saw nothing but the hotel. does that count lol
A: It counts, but this will be the first real trip.
U spanish: since i already speak spanish from growing up in san antonio, why is japanese so much harder?
A: Spanish shares a lot of vocabulary and grammar with English; Japanese shares very little, and it has three scripts.
U: makes sense
A: You're doing well.
U yuki_move: yuki is moving to tokyo for a new job in january so we can actually meet her on the trip!
A: Wonderful! Plan a day with her.
U mock: did a mock N4 test, 68%, pass line is around 50%?
A: N4 needs 90 of 180 overall plus section minimums. 68% overall is a good sign; check your weakest section.

@ s5 2025-12-09T19:30:00-06:00
U exam_done: took the N4 on sunday in chicago! i think i passed the reading but listening was brutal
A: Congratulations on taking it! Results come out in late January or February.
U dev_korean: dev passed TOPIK 1 last month, now he's insufferable lol
A: Congratulations to Dev! Friendly competition can keep you both going.
U next_goal: next goal N3 in july?
A: July N3 is a big step from N4; plan for 10+ hours a week and heavy reading.
U itinerary: for the trip we're doing tokyo 4 nights, kyoto 3, osaka 2. is that too rushed?
A: It's a common first itinerary. Use the Shinkansen and keep one slow day in Kyoto.
U: ok
A: I'll help you with phrases for restaurants.
U allergy: dev is allergic to shellfish, how do we say that at restaurants?
A: "Kōkakurui arerugī ga arimasu" (I have a shellfish allergy). Carry a printed card too.
U jr_pass: is the JR pass still worth it for tokyo kyoto osaka? it went up to like $330
A: After the price rise it often isn't for that route alone; compare the cost of individual Shinkansen tickets.
U haruto_rate: haruto raised his rate, i'm doing 2 lessons a week now instead of 3 to save money, will that hurt my speaking?
A: Two lessons plus daily shadowing practice will keep your speaking moving.
U results: oh and the N4 results come out february 2, i'll tell you when i know!!
A: Fingers crossed! I'll be here.
U last: thank you for all the help!!
A: がんばって, Nora!
"""

GOLD = {
    "updates": [
        dict(attr="duolingo streak", holder="Nora", orig="start", orig_value="45 days", upd="streak2", upd_value="112 days",
             q="How long is Nora's Duolingo streak?", cls="implicit-attribute"),
        dict(attr="JLPT target level", holder="Nora", orig="start", orig_value="N5", upd="target2", upd_value="N4",
             q="Which JLPT level is Nora taking in December?", cls="value-in-question"),
        dict(attr="vocabulary size", holder="Nora", orig="vocab1", orig_value="800 words", upd="vocab2",
             upd_value="1,450 words", q="How many Japanese words does Nora know?", cls="value-in-question"),
        dict(attr="kanji known", holder="Nora", orig="kanji1", orig_value="120", upd="kanji2", upd_value="300 kanji",
             q="How many kanji does Nora know?", cls="count"),
        dict(attr="tutor", holder="Nora", orig="tutor1", orig_value="Aiko", upd="tutor2", upd_value="Haruto",
             q="Who is Nora's Japanese tutor?", cls="name-change"),
        dict(attr="trip date", holder="Nora", orig="never_japan", orig_value="april 10", upd="trip2", upd_value="may 3",
             q="When does Nora's trip to Japan start?", cls="deadline"),
        dict(attr="exam date", holder="Nora", orig="exam1", orig_value="december 1", upd="exam_fix",
             upd_value="december 7", q="When is Nora's JLPT exam?", cls="correction"),
        dict(attr="weekly study hours", holder="Nora", orig="schedule", orig_value="5 hours", upd="hours2",
             upd_value="8 hours", q="How many hours a week does Nora study Japanese?", cls="value-in-question"),
        dict(attr="Yuki's city", holder="Yuki", orig="penpal", orig_value="Kyoto", upd="yuki_move", upd_value="Tokyo",
             q="Where will Nora's friend Yuki live?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="never_japan", b="second_time", holder="Nora", matter="has been to Japan",
             q="Has Nora been to Japan before?", cls="never-vs-past-event"),
        dict(a="no_other", b="spanish", holder="Nora", matter="speaks another language",
             q="Does Nora speak any other languages?", cls="negation-vs-possession"),
    ],
    "facts": [
        dict(t="husband", holder="Dev", holder_terms=["Dev"], other=True, q="What language is Nora's husband Dev learning?",
             terms=["korean"], cls="relative"),
        dict(t="husband", holder="Dev", holder_terms=["Dev"], other=True, q="How long is Dev's Duolingo streak?",
             terms=["200 days"], cls="relative"),
        dict(t="schedule", holder="Nora", q="Where does Nora work?", terms=["target"], cls="subordinate-clause"),
        dict(t="exam1", holder="Nora", q="Where does Nora take the JLPT?", terms=["chicago"], cls="own-attribute"),
        dict(t="exam1", holder="Nora", q="Which city does Nora live near?", terms=["minneapolis"], cls="subordinate-clause"),
        dict(t="tutor1", holder="Aiko", holder_terms=["Aiko"], other=True, q="Where is the tutor Aiko from?",
             terms=["osaka"], cls="other-person"),
        dict(t="tutor1", holder="Aiko", holder_terms=["Aiko"], other=True, q="How much does Aiko charge per hour?",
             terms=["$22"], cls="other-person"),
        dict(t="book", holder="Nora", q="Which textbook does Nora use?", terms=["genki"], cls="fact-in-question"),
        dict(t="mock", holder="Nora", q="What did Nora score on the mock N4 test?", terms=["68%"], cls="number"),
        dict(t="dev_korean", holder="Dev", holder_terms=["Dev"], other=True, q="Which exam did Dev pass?",
             terms=["TOPIK"], cls="relative"),
        dict(t="allergy", holder="Dev", holder_terms=["Dev"], other=True, q="What is Dev allergic to?",
             terms=["shellfish"], cls="relative"),
        dict(t="itinerary", holder="Nora", q="How many nights will Nora spend in Kyoto?", terms=["kyoto 3"], cls="list-item"),
        dict(t="results", holder="Nora", q="When do Nora's N4 results come out?", terms=["february 2"], cls="date"),
        dict(t="spanish", holder="Nora", q="Where did Nora grow up?", terms=["san antonio"], cls="subordinate-clause"),
    ],
    "unanswerable": [
        dict(q="What score did Nora get on the real N4 exam?", cls="near-miss"),
        dict(q="Where does Nora's sister live?", cls="wrong-person"),
        dict(q="Which hotel are Nora and Dev staying at in Tokyo?", cls="absent-attribute"),
        dict(q="How much does Haruto charge per hour?", cls="near-miss"),
    ],
    "non_conflicts": [
        dict(a="start", b="husband", matter="Nora's streak vs Dev's streak"),
        dict(a="no_other", b="husband", matter="Nora's languages vs Dev learning Korean"),
        dict(a="penpal", b="exam1", matter="friend's city vs exam city"),
    ],
}
