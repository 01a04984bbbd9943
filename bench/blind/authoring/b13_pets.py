META = dict(id="b13", genre="pet-care", title="adopting a rescue dog", user_id="tariq.h", user_name="Tariq")

SCRIPT = """
@ s1 2025-10-04T11:00:00-04:00
S: You are a pet care assistant. Give general advice on dog and cat care and behaviour; for illness or injury recommend a veterinarian.
U adopt: We just adopted a rescue dog from the Toronto Humane Society! His shelter name is Duke, he's a 3 year old beagle mix. First night tips?
A: Congratulations! Keep the first days quiet, set up a crate or bed in a calm spot, and stick to a simple routine.
U only_pet: He's our only pet so at least there's no other animal to introduce him to. How long until he settles?
A: A common rule of thumb is 3 days to decompress, 3 weeks to learn the routine, 3 months to feel at home.
U weight1: The shelter said he weighs 14 kg and should lose some, he's a bit chunky. How much should he eat?
A: Ask your vet for a target weight; usually you feed for the target weight, not the current one.
U food1: They sent us home with Purina One, should we keep him on it?
A: Keep the same food for the first week or two to avoid tummy upset, then switch gradually if you want.
U partner: My partner Amira works from home so he won't be alone much, is that good or bad for separation anxiety?
A: Practise short absences from the start, even when someone is home, so he learns being alone is fine.
U brother: My brother Yusuf in Ottawa has a golden retriever, Sunny, and he says beagles are escape artists. True?
A: Beagles follow their nose and can be escape artists. Check your fence and use a secure harness.
U: noted
A: Enjoy your first weekend together!

@ s2 2025-10-25T16:30:00-04:00
U rename: We renamed him Pepper, Duke didn't suit him at all. Will he learn the new name?
A: Yes. Say the name in a happy voice and reward him when he looks at you; most dogs learn in a week or two.
U vet1: His first vet appointment is with Dr. Haines at Riverdale Animal Hospital on November 3.
A: Bring the shelter records and ask about weight, vaccines and flea and tick prevention.
U cat: Our cat Miso hisses at him every time he comes near the couch, how do we make peace?
A: Give Miso high places and a dog-free room, and reward calm behaviour from both. Go slowly.
U walks: He pulls like a train on walks. Harness or head halter?
A: A front-clip harness is a gentle first step. Reward loose-leash walking.
U: ok
A: Let me know how the vet visit goes.

@ s3 2025-11-04T19:10:00-05:00
U vet_visit: Vet visit done. Dr. Haines says he has mild allergies and should switch food, she recommended Royal Canin Hypoallergenic. How do I switch?
A: Mix the new food in over 7-10 days, increasing it a little every day.
U target: She wants him at 11.5 kg eventually, so 2.5 kg to lose.
A: A slow loss of about 1-2% of body weight a week is safe.
U flea: Flea prevention: she prescribed NexGard monthly.
A: Set a monthly reminder.
U miso_vet: Miso's vet is different, she goes to the cat-only clinic on Danforth. Is it fine to have two vets?
A: It's fine. Keep both clinics' records handy in case of emergency.
U yusuf: Yusuf is moving to Halifax with Sunny in December, so no more dog park meetups in Ottawa sadly
A: Maybe video calls with two dogs barking at the screen!

@ s4 2026-01-20T18:00:00-05:00
U weight2: Pepper is down to 12.8 kg, and fitting his harness better. Can I reduce the diet food now?
A: Not yet: keep going until he reaches the 11.5 kg target, then adjust with the vet.
U anxiety: He howls when we both leave, neighbours complained. Training tips?
A: Practise very short departures, use a food puzzle, and build up slowly. A trainer who uses reward-based methods can help.
U trainer: We hired a trainer, Bianca, $95 per session. Fair price in Toronto?
A: That's within the usual range for a certified trainer in a big city.
U vet2: Dr. Haines retired so we're going to Dr. Chen at the same clinic now.
A: Ask the clinic to transfer his notes to Dr. Chen.
U last: Thanks!
A: Give Pepper a scratch from me.
"""

GOLD = {
    "updates": [
        dict(attr="dog's name", holder="Tariq's dog", orig="adopt", orig_value="Duke", upd="rename", upd_value="Pepper",
             q="What is the name of Tariq's dog?", cls="pet-name-change"),
        dict(attr="dog's weight", holder="Tariq's dog", orig="weight1", orig_value="14 kg", upd="weight2",
             upd_value="12.8 kg", q="How much does Tariq's dog weigh?", cls="implicit-attribute"),
        dict(attr="dog food", holder="Tariq's dog", orig="food1", orig_value="Purina", upd="vet_visit",
             upd_value="Royal Canin", q="What food does Tariq's dog eat?", cls="paraphrased-attribute"),
        dict(attr="dog's vet", holder="Tariq's dog", orig="vet1", orig_value="Haines", upd="vet2", upd_value="Chen",
             q="Who is Pepper's vet?", cls="name-change"),
        dict(attr="Yusuf's city", holder="Yusuf", orig="brother", orig_value="Ottawa", upd="yusuf", upd_value="Halifax",
             q="Where does Tariq's brother Yusuf live?", cls="relative-home-change"),
    ],
    "contradictions": [
        dict(a="only_pet", b="cat", holder="Tariq", matter="has other pets",
             q="Does Tariq have other pets besides the dog?", cls="only-vs-another"),
    ],
    "facts": [
        dict(t="adopt", holder="Tariq's dog", holder_terms=["beagle", "Duke", "Pepper"], other=True,
             q="What breed is Tariq's dog?", terms=["beagle"], cls="fact-in-question"),
        dict(t="adopt", holder="Tariq", q="Where did Tariq adopt his dog?", terms=["Humane Society"], cls="own-attribute"),
        dict(t="partner", holder="Amira", holder_terms=["Amira"], other=True, q="Does Amira work from home?",
             terms=["home"], cls="relative"),
        dict(t="brother", holder="Yusuf", holder_terms=["Yusuf", "Sunny"], other=True, q="What kind of dog does Yusuf have?",
             terms=["golden retriever"], cls="relative"),
        dict(t="brother", holder="Sunny", holder_terms=["Sunny", "Yusuf"], other=True, q="What is the name of Yusuf's dog?",
             terms=["Sunny"], cls="relative"),
        dict(t="target", holder="Tariq's dog", q="What is the dog's target weight?", terms=["11.5 kg"], cls="number"),
        dict(t="flea", holder="Tariq's dog", q="What flea prevention does Pepper take?", terms=["NexGard"], cls="own-attribute"),
        dict(t="miso_vet", holder="Miso", holder_terms=["Miso"], other=True, q="Where does Miso go to the vet?",
             terms=["Danforth"], cls="other-person"),
        dict(t="trainer", holder="Bianca", holder_terms=["Bianca"], other=True, q="How much does the trainer Bianca charge?",
             terms=["$95"], cls="other-person"),
        dict(t="vet1", holder="Tariq's dog", q="Which clinic does Pepper go to?", terms=["Riverdale"], cls="own-attribute"),
    ],
    "unanswerable": [
        dict(q="How old is Miso?", cls="absent-attribute"),
        dict(q="What does Yusuf's dog eat?", cls="wrong-person"),
        dict(q="Where does Tariq's sister live?", cls="wrong-person"),
    ],
    "non_conflicts": [
        dict(a="vet1", b="miso_vet", matter="dog's vet vs cat's vet"),
        dict(a="weight1", b="target", matter="current weight vs target weight"),
    ],
}
