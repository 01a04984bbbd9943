"""bench/wellformed: the well-formedness check of fact statements (spaCy parse + rules)."""

import pytest

from bench.wellformed import problems, problems_many, share_ill_formed

GOOD = [
    "Maya works at Swedish Medical Center.",
    "Maya moved to Seattle.",
    "Maya and Tom have a dog.",
    "About 1.8% of requests fail right now.",
    "Melanie's kids are at camp.",
    "There is a meeting on Friday.",
    "The p95 latency is 250ms.",
    "The repository has 165 commits.",
    "The project uses Flask 3.0.2.",
    "Maya has never written Flask routes in this project.",
    "Caroline, who lives in Chicago, works at Acme.",
    "Caroline thinks painting is fun.",
    "Caroline values inclusivity in her work as an artist.",
    "Maria volunteers at a homeless shelter.",
    "Melanie made a bowl in her pottery class which she is proud of.",
    "John, along with his family, works out together three times a week.",
    "John believes in having friends you can rely on.",
    "Maria takes regular me-time walks at the park.",
    "The assistant recommended connection pooling with pgbouncer.",
    "Maya's team switched from MySQL to Postgres 16 in March 2023.",
    "Maya's service config lives in config/settings.yaml.",
    "Caroline attended an LGBTQ support group recently and found the stories inspiring.",
    # Sentences the small model misparses; the check reads them as sentences.
    "Making it is so calming.",  # a gerund phrase as subject
    "Taking care of Maria physically, emotionally, and mentally helps Maria.",
    "Creativity and family keep Melanie at peace.",  # a present verb tagged VB
    "All Gina's hard work really paid off.",  # a past verb tagged VBN
    "The sense of community and support really matters.",  # a verb tagged NNS
    "Lately Jon has been networking.",  # "has" is the auxiliary of "been"
    "Since Gina lost her job at Door Dash, things have been tough.",  # a subordinate opening
    "That sign reminds Jon to never give up, however hard things get.",
    # A coordinated subject the parser hangs inside a prepositional phrase is plural.
    "Tom's passion for the project and belief in its success are driving Tom.",
    # A name as the subject of a bare infinitive or small clause is the verb's object.
    "It helped Ana grow and made Ana appreciate life more.",
    "Ana is happy Tom found something that makes Tom happy.",
    # A phrase that comes back later in the sentence is no leftover of a rewrite.
    "Tom shared a photo of a cat lying on the floor with its head on the floor.",
    "Tom remembers why they are doing what they are doing.",
    "There've been some tough times lately for Tom.",
    '"Brave" by Sara Bareilles means a lot to Ana.',  # a sentence opening with a title
    "Tom will make sure to spread the word about it.",  # a statement, not a request
    "Taking time to rest is important in a busy week.",  # a gerund subject, misparsed
    "Tara, Ana's sister, is based in Seattle.",  # a subject and its apposition
]

# (statement, the reason code expected among the problems); most from issue 16.
BAD = [
    ("Maya nows work at Swedish Medical Center.", "garbled-token"),
    ("Maya is Maya, Maya lives in Chicago.", "self-apposition"),
    ("Maya is Maya, Maya lives in Chicago.", "comma-splice"),
    ("Maya is tired, she goes to bed.", "comma-splice"),
    ("Sofia gets this error when Sofia hit the endpoint.", "repeated-subject"),
    ("App = Flask(__name__).", "code-or-markup"),
    ("Git add.", "no-finite-verb"),
    ("From flask import Flask, request, jsonify.", "code-or-markup"),
    ("Maya can you fill in the missing tests.", "request"),
    ("Caroline can you fill in the config for me?", "question"),
    ("Congratulations on the move to Seattle!", "greeting"),
    ("Thanks, Melanie!", "vocative"),
    ("Caroline, please send me the file.", "vocative"),
    ("Caroline, please send me the file.", "request"),
    ("Send me the file.", "no-finite-verb"),
    ("Let's use Redis.", "request"),
    ("Melanie likes painting and", "dangling-end"),
    ("Melanie likes painting and", "terminal-punctuation"),
    ("Melanie is a fan of.", "dangling-end"),
    ("I love hiking.", "speaker-pronoun"),
    ("You should use Postgres.", "speaker-pronoun"),
    ("Maya have a dog.", "agreement"),
    ("Maya likes the the beach.", "doubled-token"),
    ("Maya lives in Chicago and Maya lives in Chicago.", "repeated-phrase"),
    ("- Maya uses Redis.", "code-or-markup"),
    ("Maya uses `redis` for caching.", "code-or-markup"),
    ("Maya runs **pytest** daily.", "code-or-markup"),
    ("The config sets {debug: true}.", "code-or-markup"),
    ("maya works at Google.", "capital"),
    ("Maya works at Google", "terminal-punctuation"),
    ("Hi Maya!", "greeting"),
    ("", "empty"),
    # Verbless fragments and clauses with only a subordinate verb stay ill-formed.
    ("Three times a week.", "no-finite-verb"),
    ("Mainly the roadways.", "no-finite-verb"),
    ("Almost as silly as when Melanie got to feed a horse a carrot.", "no-finite-verb"),
    ("Trying to get it fixed.", "no-finite-verb"),
    ("Luna and Oliver.", "no-finite-verb"),
    ("That pic is so beautiful, the colors really pop.", "comma-splice"),
    ("Make sure to call Tom.", "request"),
    ("Ana is tired, so make sure you rest.", "request"),
    ("Never give up never give up.", "repeated-phrase"),
    ("Tom has a car with a broken window and a broken window.", "repeated-phrase"),
    ("Trying to rest when it is sunny.", "no-finite-verb"),
    ("Ana's is small, Ana relies on them.", "repeated-subject"),
]


@pytest.mark.parametrize("statement", GOOD)
def test_well_formed_statements_pass(statement: str) -> None:
    assert problems(statement) == []


@pytest.mark.parametrize(("statement", "code"), BAD)
def test_ill_formed_statements_name_their_reason(statement: str, code: str) -> None:
    assert code in [reason.split(":")[0] for reason in problems(statement)]


def test_batch_matches_one_by_one_and_share_counts_statements() -> None:
    texts = [GOOD[0], BAD[0][0], GOOD[1]]
    assert problems_many(texts) == [problems(t) for t in texts]
    share, bad = share_ill_formed(texts)
    assert share == pytest.approx(1 / 3)
    assert [text for text, _ in bad] == [BAD[0][0]]


@pytest.mark.parametrize(
    "statement",
    ["Ledgerly stores everything in PostgreSQL.", "Next up for Maya is the search page."],
)
def test_names_the_tagger_misreads_and_inverted_copulas_pass(statement: str) -> None:
    assert problems(statement) == []


@pytest.mark.parametrize(
    ("statement", "flagged"),
    [
        ("It is a Vue 3 SPA.", True),
        ("They are twins.", True),
        ("Her birthday is on 27 June.", True),
        ("That was a great trip to Rome.", True),
        ("The dashboard is a Vue 3 SPA.", False),
        ("That charity race was great.", False),  # a determiner
        ("It is raining in Manchester.", False),  # a dummy "it"
        ("It takes Ann 30 minutes to get to work.", False),
        ("It is important that the tests pass.", False),
    ],
)
def test_a_pronoun_subject_that_names_nothing_is_flagged(statement: str, flagged: bool) -> None:
    assert any(p.startswith("dangling-pronoun") for p in problems(statement)) is flagged
