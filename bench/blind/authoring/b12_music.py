META = dict(id="b12", genre="music-practice", title="adult piano practice", user_id="henrik.m", user_name="Henrik")

SCRIPT = """
@ s1 2025-08-18T19:30:00+02:00
U piece1: hello. i am 44 and learning piano again after 25 years. my teacher wants me to play Chopin Nocturne op 9 no 2 at the student recital. is it too hard for a returning adult?
A: It's a classic choice for returning adults: lyrical, with tricky ornaments in places. With steady practice it's achievable.
U practice1: i practise 30 minutes a day in the evening after the kids sleep. enough?
A: Thirty focused minutes daily is a solid base. Split it: warm-up, hard passages slowly, then a run-through.
U hanon1: for warm-up i do hanon no 1 with metronome at 72, then scales. the teacher says go faster slowly lol
A: Increase by 2-4 bpm only when you can play three times clean at the current tempo.
U recital1: recital is 8 november at the music school in Aarhus. i am nervous already
A: Nerves are normal. Playing for family a few times before will help.
U never_public: i have never performed in public, not even as a child. how do i prepare for that?
A: Do mock performances: record yourself, play for friends, and practise starting the piece cold.
U daughter: my daughter Freja is 11 and plays violin, grade 3, she practises 20 minutes a day and complains a lot. any tips for her?
A: Short goals and a practice chart with small rewards work for many kids. Let her choose one piece for fun.
U: thanks
A: Happy practising!

@ s2 2025-09-15T20:15:00+02:00
U hanon2: good news, hanon is at 96 now, clean 3 times. next step?
A: Try the same exercise in different rhythms and then in other keys.
U practice2: i increased to 50 minutes a day, my wife Line says the neighbours will complain
A: Fifty minutes is great. A practice pedal or a digital piano with headphones can keep the peace.
U trills: the trills in bar 16 are a disaster. fingering?
A: Try 3-4 or 2-3 instead of 1-2, and practise the trill as rhythmic groups first.
U piece2: teacher and i agreed to switch my recital piece to Debussy Clair de lune, the nocturne ornaments are not ready. is clair de lune easier?
A: Different challenges: fewer ornaments, but control of voicing and pedalling is hard. It suits a thoughtful player.
U venue_fix: Correction: the recital is in the Holmens church hall, not the music school, they are renovating.
A: Noted: Holmens church hall.
U: ok
A: How's Freja's violin going?
U freja_teacher: better! her teacher Mr. Okafor gave her a Vivaldi piece and now she practises without me asking
A: That's the magic of the right piece.

@ s3 2025-10-20T21:00:00+02:00
U recital2: the recital moved to 22 november because the hall is not ready. more time for me
A: Extra weeks before a first recital are a gift.
U wedding: honestly when i played at my cousin's wedding last summer i froze in the middle, so i know the nerves are real
A: Freezing once doesn't predict the next time. Practise starting from several points in the piece so you can recover.
U pedal: the pedalling in the middle section is muddy. half pedal?
A: Yes, try half pedals and change on each harmony change.
U exam1: teacher thinks i could take grade 4 in spring. is that the right level after clair de lune?
A: Clair de lune is around grade 7-8 level in many syllabuses, so grade 4 may be too easy; ask about grade 5 or 6.
U exam2: ok we agreed on grade 6 for the spring then
A: A good stretch goal.
U freja_exam: freja passed grade 3 with merit!
A: Congratulations to Freja!

@ s4 2025-11-24T10:00:00+01:00
U after: the recital went well! i played clair de lune without stopping, my hands shook only in the first page
A: Congratulations on your first recital! A steady finish is a real achievement.
U next_piece: next piece maybe Satie Gymnopédie no 1 while i prepare the exam?
A: A lovely contrast, and good for voicing practice.
U practice3: i want to keep 50 minutes but the exam pieces need more. 60?
A: Sixty is fine if you add a rest day each week.
U last: thanks for the help
A: Enjoy the music, Henrik.
"""

GOLD = {
    "updates": [
        dict(attr="recital piece", holder="Henrik", orig="piece1", orig_value="Chopin", upd="piece2",
             upd_value="Clair de lune", q="Which piece is Henrik playing at the recital?", cls="paraphrased-attribute"),
        dict(attr="daily practice", holder="Henrik", orig="practice1", orig_value="30 minutes", upd="practice2",
             upd_value="50 minutes", q="How long does Henrik practise each day?", cls="value-in-question"),
        dict(attr="Hanon metronome tempo", holder="Henrik", orig="hanon1", orig_value="72", upd="hanon2", upd_value="96",
             q="At what metronome tempo does Henrik play Hanon no 1?", cls="implicit-attribute"),
        dict(attr="recital date", holder="Henrik", orig="recital1", orig_value="8 november", upd="recital2",
             upd_value="22 november", q="When is Henrik's piano recital?", cls="deadline"),
        dict(attr="recital venue", holder="Henrik", orig="recital1", orig_value="music school", upd="venue_fix",
             upd_value="Holmens", q="Where is Henrik's recital?", cls="correction"),
        dict(attr="exam grade", holder="Henrik", orig="exam1", orig_value="grade 4", upd="exam2", upd_value="grade 6",
             q="Which piano grade exam will Henrik take in spring?", cls="value-in-question"),
    ],
    "contradictions": [
        dict(a="never_public", b="wedding", holder="Henrik", matter="has performed in public",
             q="Has Henrik performed in public before?", cls="never-vs-past-event"),
    ],
    "facts": [
        dict(t="piece1", holder="Henrik", q="How old is Henrik?", terms=["44"], cls="fact-in-question"),
        dict(t="daughter", holder="Freja", holder_terms=["Freja"], other=True, q="What instrument does Freja play?",
             terms=["violin"], cls="relative"),
        dict(t="daughter", holder="Freja", holder_terms=["Freja"], other=True, q="How long does Freja practise each day?",
             terms=["20 minutes"], cls="relative"),
        dict(t="freja_teacher", holder="Mr. Okafor", holder_terms=["Okafor"], other=True, q="Who is Freja's violin teacher?",
             terms=["Okafor"], cls="other-person"),
        dict(t="practice2", holder="Line", holder_terms=["Line"], other=True, q="What is the name of Henrik's wife?",
             terms=["Line"], cls="relative"),
        dict(t="recital1", holder="Henrik", q="Which city is the music school in?", terms=["Aarhus"], cls="own-attribute"),
        dict(t="trills", holder="Henrik", q="Where are the difficult trills in the nocturne?", terms=["bar 16"], cls="fact-in-question"),
        dict(t="freja_exam", holder="Freja", holder_terms=["Freja"], other=True, q="What result did Freja get in her grade 3 exam?",
             terms=["merit"], cls="relative"),
        dict(t="next_piece", holder="Henrik", q="What piece might Henrik learn next?", terms=["Satie"], cls="fact-in-question"),
        dict(t="wedding", holder="Henrik", q="Where did Henrik freeze while playing?", terms=["wedding"], cls="subordinate-clause"),
    ],
    "unanswerable": [
        dict(q="What brand is Henrik's piano?", cls="absent-attribute"),
        dict(q="What is the name of Henrik's piano teacher?", cls="near-miss"),
        dict(q="Which instrument does Henrik's son play?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="practice1", b="daughter", matter="Henrik's practice time vs Freja's"),
        dict(a="daughter", b="exam1", matter="Freja's grade 3 vs Henrik's grade 4"),
    ],
}
