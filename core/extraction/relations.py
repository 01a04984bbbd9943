"""Relation families: the ways English says where the speaker lives, where they work and
what their role is, read into the single-valued slots ``lives_in``, ``works_at`` and
``job`` (core/extraction/slot_rules.py tries them before its own rules).

A family lists the verb-phrase forms a careful reader takes to state one relation; the
values (places, employers, roles) are open, never listed:

- residence (``lives_in``): a state ("I live / reside in X", "I'm / we're living / based
  / settled / staying in X", "I'm in X" with a place name, "we've been in X since ..."),
  a change whose result still holds ("I moved / relocated to X", "since / after moving to
  X", "after we moved to X", "moving to X was ..."), and the home itself ("my / our (new)
  flat / house / apartment / home / place in X", "the new flat in X is ...");
- employment (``works_at``): "I work at / for X", "my (new) job at X", "I got / took /
  landed / started a (new) job at X";
- role (``job``): "I work / am working as R", "I'm R at X", "by day / for work I'm R",
  "I started (a new job / working) as R", "I got / took / landed / accepted a job as R",
  "I was hired / promoted as / to R", "I became R", "I've been R at X" (a state that
  still holds), "being R at X (is ...)" (a gerund subject: the speaker's own).

Each family also has its **ended** forms: the past habitual ("I used to live in X", "I
used to be R"), the simple past of its state ("I lived in X for six years", "I worked
as R", "I was R at X"), a former holder ("I'm a former R", "my previous job at X") and
a job lost or left ("I lost / quit my job at X"): the relation held and no longer does.
A change verb in the past keeps its result ("I moved to X" says where I live now), a
state verb in the past does not. An ended reading is history: it never replaces the
current value (core/facts/gate.py).

A form is read inside any clause, also a subordinate one ("Since I started as R at Y, I
barely cook": the change is said in passing). The subject is always the speaker ("I",
"we"): a relative's move ("my sister moved to Rome") is not read here, so it never
replaces the speaker's value; named subjects have rules of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RELATIONS", "Relation"]


@dataclass(frozen=True)
class Relation:
    """One form of a family: the attribute it states, its pattern (a ``value`` group),
    whether it says the relation ended, and whether its value needs the role check
    (a frame such as "work as" already says that the value is a role)."""

    family: str
    attribute: str
    pattern: re.Pattern[str]
    ended: bool = False
    role_checked: bool = False


_Q = "['’]"
_I = r"\b(?:I|i)(?![A-Za-z])"
_WE = r"\b(?:I|i|[Ww]e)(?![A-Za-z])"
_BE = rf"(?:{_Q}m|{_Q}re| am| are)"  # I'm, we're
_HAVE = rf"(?:{_Q}ve| have)"
_ADV = r"(?:(?:just|now|recently|finally|actually|officially|also|still|currently|since) )*"
_STOP = (
    r"for|since|from|until|till|when|before|after|now|with|and|but|because|so|last|this|next"
    r"|in|on|at|to|a|an|ago|recently|together|already|again|too|where|which|who|though"
    r"|is|was|are|were|has|have|had|will|would|it|its|my|our|we|i|i['’]\w+|we['’]\w+|the"
)
_WORDS = rf"[A-Za-z][\w'’-]*(?: (?!(?i:{_STOP})\b)[A-Za-z][\w'’-]*){{0,3}}"
_PLACE = rf"(?P<value>(?:the )?{_WORDS})"
_NAMED_PLACE = r"(?P<value>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,2})(?! \d)"
_ROLE = (
    r"(?:a |an )?(?P<value>(?:[a-z-]+ ){0,2}?[a-z-]+)"
    r"(?=\s+(?:at|in|for|with|from|and|who|since|now|on|here|there|again|last|this|next"
    r"|yesterday|today|recently|earlier|after|before|because|but|so|when|which|though)\b"
    r"|\s*[,.!;]|\s*$)"
)
_ORG = rf"(?:the |a |an )?(?P<value>{_WORDS})"
_HOME = r"(?:flat|apartment|house|home|place|condo|studio)"
# Temporary stays: "I'm in Paris this week", "we're in Rome for the weekend".
_STAY = (
    r"(?!\s+(?:for|this|on|until|till|next|over|right now|at the moment|today|tonight"
    r"|tomorrow|visiting|again))"
)


def _form(family: str, attribute: str, pattern: str, **flags: bool) -> Relation:
    return Relation(family, attribute, re.compile(pattern), **flags)


def _residence() -> tuple[Relation, ...]:
    f = "residence"
    return (
        _form(f, "lives_in", rf"{_WE} used to (?:live|be based|be living) in {_PLACE}", ended=True),
        _form(
            f,
            "lives_in",
            rf"{_WE} (?:lived|(?:was|were) (?:living|based|settled)|resided) in {_PLACE}",
            ended=True,
        ),
        _form(f, "lives_in", rf"{_WE}{_BE} {_ADV}(?:living|based|settled|staying) in {_PLACE}"),
        _form(f, "lives_in", rf"{_WE} {_ADV}(?:settled|resettled) (?:down )?in {_PLACE}"),
        _form(f, "lives_in", rf"{_WE}{_BE} {_ADV}in {_NAMED_PLACE}\b{_STAY}"),
        _form(f, "lives_in", rf"{_WE}{_HAVE} {_ADV}been (?:living )?in {_NAMED_PLACE} since\b"),
        _form(
            f,
            "moved_to",
            rf"\b(?i:since|after|ever since|now that)"
            rf" (?:(?:I|i|we) (?:have |{_Q}ve )?)?(?:moved|moving|relocated|relocating)"
            rf" to {_PLACE}",
        ),
        _form(f, "moved_to", rf"(?:^|[.!?] )(?i:moving|relocating) to {_PLACE} (?:was|has been)\b"),
        _form(f, "lives_in", rf"\b(?:[Mm]y|[Oo]ur) (?:new )?{_HOME} (?:here )?in {_NAMED_PLACE}"),
        _form(f, "lives_in", rf"^(?:[Tt]he) new {_HOME} in {_NAMED_PLACE}"),
    )


def _role() -> tuple[Relation, ...]:
    f = "role"
    return (
        _form(f, "job", rf"{_I} used to (?:be|work as) {_ROLE}", ended=True, role_checked=True),
        _form(f, "job", rf"{_I} (?:worked|was working) as {_ROLE}", ended=True),
        _form(
            f,
            "job",
            rf"{_I}{_BE} {_ADV}(?:a|an) (?:former|ex-) ?{_ROLE}",
            ended=True,
            role_checked=True,
        ),  # fmt: skip
        _form(
            f,
            "job",
            rf"{_I} was (?:a|an) {_ROLE}(?= (?:at|for|with)\b)",
            ended=True,
            role_checked=True,
        ),  # fmt: skip
        _form(
            f,
            "job",
            rf"{_I}{_HAVE}? {_ADV}(?:started|began|start|begin)(?: (?:a|my) (?:new )?job| working)?"
            rf" as {_ROLE}",
        ),
        _form(
            f,
            "job",
            rf"{_I}{_HAVE}? {_ADV}(?:got|took|landed|accepted|found|have) (?:a|the) (?:new )?"
            rf"(?:job|role|position) as {_ROLE}",
        ),
        _form(f, "job", rf"{_I}(?:{_Q}ve been| have been| was| got) (?:hired|employed) as {_ROLE}"),
        _form(f, "job", rf"{_I}(?:{_Q}ve been| have been| was| got) promoted to {_ROLE}"),
        _form(
            f, "job", rf"{_I}{_HAVE}? {_ADV}(?:became|become) (?:a|an) {_ROLE}", role_checked=True
        ),  # fmt: skip
        _form(f, "job", rf"{_I} (?:{_ADV}work|{_BE} {_ADV}working) as {_ROLE}"),
        _form(
            f,
            "job",
            rf"\b(?i:by day|for work|for a living|professionally),? {_I}{_BE} {_ADV}(?:a|an)"
            rf" {_ROLE}",
        ),
        _form(f, "job", rf"{_I}{_HAVE} {_ADV}been (?:a|an) {_ROLE}(?= (?:at|with)\b)"),
        _form(f, "job", rf"{_I}{_HAVE} {_ADV}been (?:a|an) {_ROLE}", role_checked=True),
        _form(f, "job", rf"{_I}{_BE} {_ADV}(?:a|an) {_ROLE}(?= (?:at|with)\b)"),
        _form(f, "job", rf"(?:^|[,.!?] )(?i:being) (?:a|an) {_ROLE}(?= (?:at|with)\b)"),
    )


def _employment() -> tuple[Relation, ...]:
    f = "employment"
    return (
        _form(f, "works_at", rf"{_I} used to work (?:at|for) {_ORG}", ended=True),
        _form(f, "works_at", rf"{_I} (?:worked|was working) (?:at|for) {_ORG}", ended=True),
        _form(
            f,
            "works_at",
            rf"\b(?:[Mm]y) (?:former|previous|old|last) (?:job|role|position|employer) (?:at|with"
            rf"|was(?: at)?|is) {_ORG}",
            ended=True,
        ),
        _form(
            f,
            "works_at",
            rf"{_I}{_HAVE}? {_ADV}(?:lost|quit|left|resigned from|got laid off from|was laid off"
            rf" from|got fired from|was fired from) my (?:job|role|position) (?:at|with) {_ORG}",
            ended=True,
        ),
        _form(
            f,
            "works_at",
            rf"(?<!lost )(?<!quit )(?<!left )(?<!from )\b(?:[Mm]y) (?:new )?(?:job|role|position)"
            rf" (?:at|with) {_ORG}",
        ),
    )


RELATIONS: tuple[Relation, ...] = (*_residence(), *_role(), *_employment())
"""Every form of every family, in the order they are tried (ended forms first: "I used
to be R at X" is not the present "be R at X")."""
