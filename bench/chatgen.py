"""bench/chatgen: short ordinary personal chats with hand-checkable gold labels (a dev set).

    python -m bench.chatgen [--seed 22] [--chats 24] [--out bench/data]

Writes `chats.jsonl` (every turn, in the form `provmem ingest` reads; the assistant's turns
have speaker, agent and role "assistant") and `chats-gold.json` (per chat: questions with
the turns that answer them and, for a changed value, the superseded turns; the spans that
must not become facts; every date said, with its capture time and expected resolution).

Each chat is a new user telling an assistant about their life over 1-2 sessions (12-40
turns): job, home, family, pet, food, hobbies, a trip with a yearless future date, a past
trip, birthdays (no year is said, so none is implied), a commute. Moves and job changes
come later, directly, in passing, or the other way round ("I used to ..." after the new
value). Greetings, thanks, questions and requests to the assistant, and the assistant's
welcomes, congratulations, questions and suggestions fill the rest; a few users type
casually (lower case, no full stops). Wording comes from templates with many alternatives,
so this is for development, not the measure. Deterministic for a seed (`random.Random`).
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.techgen import pick
from provmem.core.language.lexicon import MONTHS

DATA = Path(__file__).resolve().parent / "data"
TURNS_FILE, GOLD_FILE = "chats.jsonl", "chats-gold.json"
ORG, ASSISTANT = "chatbench", "assistant"
NOT_FACTS = {"greeting", "filler", "question", "request", "welcome", "congrats", "ack", "ask"}
"""Span kinds that assert nothing: no fact may come from them."""

WORDING = json.loads((DATA / "chat-wording.json").read_text("utf-8"))
"""Names, places, jobs, foods and every template (`say`: the user's, by kind; `reply`: the
assistant's; `questions`: by topic), in bench/data so they can be read and checked by hand."""
USERS, PARTNERS, KIDS, SIBLINGS = (WORDING[k] for k in ("users", "partners", "kids", "siblings"))
PETS, PET_KINDS, CITIES, PLACES = (WORDING[k] for k in ("pets", "pet_kinds", "cities", "places"))
JOBS = [tuple(job) for job in WORDING["jobs"]]
PARTNER_JOBS, DISLIKES, LIKES = (WORDING[k] for k in ("partner_jobs", "dislikes", "likes"))
HOBBIES, ALLERGIES, LANGUAGES = (WORDING[k] for k in ("hobbies", "allergies", "languages"))
SAY, REPLY, QUESTIONS = (WORDING[k] for k in ("say", "reply", "questions"))
TAGS = WORDING["states"]  # which values a user template states: kind -> [topic, placeholder]

CONGRATULATED = {"job_new": "congrats_job", "city_move": "congrats_city", "pet": "congrats_pet",
                 "trip": "congrats_trip", "trip_day": "congrats_trip"}  # fmt: skip

# --- one chat's persona and story ---------------------------------------------------------


@dataclass
class Said:
    """One sentence of a turn: its kind (a SAY/REPLY key), text, facts and dates."""

    kind: str
    text: str
    facts: list[tuple[str, str]] = field(default_factory=list)  # (topic, value)
    dates: list[dict[str, Any]] = field(default_factory=list)
    fills: dict[str, str] = field(default_factory=dict)  # the values it was said with


@dataclass
class Persona:
    chat: str
    rng: random.Random
    values: dict[str, str]
    current: dict[str, str]  # topic -> value now
    old: dict[str, str]  # topic -> superseded value
    dates: dict[str, dict[str, Any]]  # placeholder -> said, month, day, tense, year
    plans: dict[str, str]
    casual: bool

    def fill(self, template: str, **extra: str) -> str:
        return template.format(**{**self.values, **extra})


def _date(
    rng: random.Random, month: int, tense: str, *, day: bool, year: int | None = None
) -> dict[str, Any]:
    name = MONTHS[month - 1].capitalize()
    d = rng.randrange(2, 28) if day else None
    text = name if d is None else pick(rng, (f"{d} {name}", f"{name} {d}"))
    text += f" {year}" if year else ""
    said = f"{'on' if d else 'in'} {text}"
    return {"said": said, "answer": text, "month": month, "day": d, "tense": tense, "year": year}


def persona(index: int, rng: random.Random, start: date) -> Persona:
    names = rng.sample(CITIES, 3)
    trip, past = rng.sample(PLACES, 2)
    m = start.month
    ahead, back = (m - 1 + rng.randrange(2, 8)) % 12 + 1, (m - 1 - rng.randrange(2, 8)) % 12 + 1
    dates = {
        "trip_date": _date(rng, ahead, "future", day=rng.random() < 0.4),
        "past_date": _date(rng, back, "past", day=False),
        "move_date": _date(rng, (m - 2) % 12 + 1, "past", day=False),
        "bday": _date(rng, rng.randrange(1, 13), "recurring", day=True),
        "kid_bday": _date(rng, rng.randrange(1, 13), "recurring", day=True),
        "pet_since": _date(rng, rng.randrange(1, 13), "past", day=False,
                           year=start.year - rng.randrange(1, 4)),
    }  # fmt: skip
    commute = rng.randrange(15, 40)
    values = {
        "user": USERS[index % len(USERS)], "partner_role": (role := pick(rng, list(PARTNERS))),
        "partner": pick(rng, PARTNERS[role]),
        "partner_job": pick(rng, PARTNER_JOBS), "kid_role": (kid := pick(rng, list(KIDS))),
        "kid": pick(rng, KIDS[kid]), "kid_age": str(rng.randrange(3, 15)),
        "sib_role": (sib := pick(rng, list(SIBLINGS))), "sib": pick(rng, SIBLINGS[sib]),
        "sib_city": names[2], "pet": pick(rng, PETS), "pet_kind": pick(rng, PET_KINDS),
        "pet_age": str(rng.randrange(2, 12)), "dislike": pick(rng, DISLIKES),
        "like": pick(rng, LIKES), "hobby": pick(rng, HOBBIES), "trip": trip, "past": past,
        "allergy": pick(rng, ALLERGIES), "language": pick(rng, LANGUAGES),
        "years": str(rng.randrange(2, 9)), "old_city": names[0],
        "commute": f"{commute} minutes",
        "commute_new": f"{commute + rng.randrange(10, 25)} minutes",
    }  # fmt: skip
    values.update({k: d["said"] for k, d in dates.items()})
    plans = {t: pick(rng, ("stable", "direct", "passing", "used")) for t in ("job", "city")}
    if plans["job"] == plans["city"] == "stable":
        plans[pick(rng, ("job", "city"))] = pick(rng, ("direct", "passing", "used"))
    plans["commute"] = pick(rng, ("stable", "changed"))
    return Persona(
        chat=f"chat-{index + 1:02d}", rng=rng, values=values, current={}, old={}, dates=dates,
        plans=plans, casual=rng.random() < 0.25,
    )  # fmt: skip


def say(p: Persona, kind: str, **extra: str) -> Said:
    template = pick(p.rng, SAY[kind])
    text = p.fill(template, **extra)
    values = {**p.values, **extra}
    facts = [(topic, _answer(p, key, values)) for topic, key in TAGS.get(kind, [])]
    facts += [(topic, value) for topic, value in _changing(kind, extra)]
    dates = [p.dates[k] for k in p.dates if "{" + k + "}" in template]
    return Said(kind, _casual(p, text) if p.casual else text, facts, dates, extra)


def _answer(p: Persona, key: str, values: dict[str, str]) -> str:
    return str(p.dates[key]["answer"]) if key in p.dates else values[key]


def _changing(kind: str, extra: dict[str, str]) -> list[tuple[str, str]]:
    topic = kind.split("_")[0]
    return [(topic, extra[topic])] if topic in ("job", "city") else []


def _casual(p: Persona, text: str) -> str:
    """Lower-case start (names kept), as people type in a hurry."""
    first = text.split()[0].strip(",.!?'s")
    if first not in p.values.values():
        text = text[:1].lower() + text[1:]
    return text


CHANGES = {  # plan -> (early kind, value index), (late kind, value index); 0 old, 1 new
    "job": {"stable": [("job", 0)], "direct": [("job", 0), ("job_new", 1)],
            "passing": [("job", 0), ("job_passing", 1)],
            "used": [("job_new", 1), ("job_used", 0)]},
    "city": {"stable": [("city", 0)], "direct": [("city", 0), ("city_move", 1)],
             "passing": [("city", 0), ("city_passing", 1)],
             "used": [("city", 1), ("city_used", 0)]},
}  # fmt: skip
ALWAYS = ["pet", "dislike", "birthday", "trip"]
OPTIONAL = ["partner", "kid", "like", "hobby", "past_trip", "commute", "allergy", "language",
            "sibling", "pet_since"]  # fmt: skip


def story(
    p: Persona, values: dict[str, tuple[dict[str, str], dict[str, str]]]
) -> tuple[list[Said], list[Said]]:
    """The user's statements before and after the changes: (early, late)."""
    early: list[list[Said]] = []
    late: list[list[Said]] = []
    for topic, steps in CHANGES.items():
        plan = steps[p.plans[topic]]
        early.append([say(p, plan[0][0], **values[topic][plan[0][1]])])
        if len(plan) > 1:
            late.append([say(p, plan[1][0], **values[topic][plan[1][1]])])
    chosen = ALWAYS + p.rng.sample(OPTIONAL, p.rng.randrange(5, 9))
    for kind in chosen:
        if kind == "trip" and p.dates["trip_date"]["day"]:
            kind = "trip_day"
        target = late if kind in ("past_trip", "language") and p.rng.random() < 0.5 else early
        target.append([say(p, kind), *([say(p, "kid_birthday")] if kind == "kid" else [])])
    if p.plans["commute"] == "changed" and "commute" in chosen:
        late.append([say(p, "commute_new")])
    p.rng.shuffle(early)
    p.rng.shuffle(late)
    return [say(p, "intro"), *(s for unit in early for s in unit)], [s for u in late for s in u]


def job_and_city(p: Persona) -> dict[str, tuple[dict[str, str], dict[str, str]]]:
    (old_job, old_place), (new_job, new_place) = p.rng.sample(JOBS, 2)
    a = {job: ("an " if job[0] in "aeiou" else "a ") + job for job in (old_job, new_job)}
    cities = [c for c in CITIES if c != p.values["sib_city"]]
    old_city, new_city = p.rng.sample(cities, 2)
    p.values["old_city"] = old_city if p.plans["city"] != "used" else new_city
    return {
        "job": (
            {"job": old_job, "a_job": a[old_job], "workplace": old_place},
            {"job": new_job, "a_job": a[new_job], "workplace": new_place},
        ),
        "city": ({"city": old_city}, {"city": new_city}),
    }


# --- turns: user messages and the assistant's replies --------------------------------------

Turn = tuple[str, int, list[Said]]  # speaker role, session, sentences


def user_turns(p: Persona, early: list[Said], late: list[Said]) -> list[Turn]:
    two = bool(late) and p.rng.random() < 0.6
    segments = (
        [(1, early, "greeting"), (2, late, "back")] if two else [(1, early + late, "greeting")]
    )
    turns: list[Turn] = []
    for session, items, opener in segments:
        i = 0
        while i < len(items):
            take = 2 if p.rng.random() < 0.45 else 1
            sentences = items[i : i + take]
            if i == 0:
                sentences = [say(p, opener), *sentences]
            if p.rng.random() < 0.2:
                sentences.append(say(p, pick(p.rng, ("question", "request"))))
            turns.append(("user", session, sentences))
            if p.rng.random() < 0.15:
                turns.append(
                    ("user", session, [say(p, pick(p.rng, ("question", "request", "filler")))])
                )
            i += take
    return turns


def with_replies(p: Persona, turns: list[Turn]) -> list[Turn]:
    out: list[Turn] = []
    for i, (role, session, sentences) in enumerate(turns):
        out.append((role, session, sentences))
        follows = turns[i + 1][2] if i + 1 < len(turns) else []
        moving = any(s.kind == "city_move" for s in follows)
        asks = sentences[-1].kind in ("question", "request")
        if follows and not (asks or moving) and p.rng.random() < 0.12:
            continue  # the user sends two messages in a row
        out.append((ASSISTANT, session, reply(p, sentences, "ask_still" if moving else None)))
        for s in follows if moving else ():
            if s.kind == "city_move":  # the move is the answer: "No, we moved to ..."
                body = s.text.removeprefix("Oh, ").removeprefix("Update: ")
                s.text = "No, " + body[:1].lower() + body[1:]
    return out


def reply(p: Persona, user: list[Said], ask: str | None = None) -> list[Said]:
    kinds = [s.kind for s in user]
    parts = [
        _reply(p, w) for k, w in (("intro", "welcome"), ("back", "welcome_back")) if k in kinds
    ]
    parts += [_reply(p, CONGRATULATED[s.kind], s) for s in user if s.kind in CONGRATULATED][:1]
    if kinds[-1] in ("question", "request") and ask is None:
        return [*parts, _reply(p, pick(p.rng, ("answer", "suggestion")))]
    echo = [s for s in user if f"echo_{s.kind}" in REPLY]
    if echo and p.rng.random() < 0.35:  # the assistant restates what the user said
        parts.append(_reply(p, f"echo_{echo[0].kind}", echo[0]))
    elif not parts or p.rng.random() < 0.5:
        parts.append(_reply(p, "ack"))
    context = next((f"ask_{k}" for k in kinds if f"ask_{k}" in REPLY), "ask")
    roll = p.rng.random()
    if ask or roll < 0.4:
        parts.append(_reply(p, ask or context))
    elif roll < 0.7:
        parts.append(_reply(p, "suggestion"))
    return parts


def _reply(p: Persona, kind: str, to: Said | None = None) -> Said:
    span = next((k for k in ("congrats", "ask", "welcome", "echo") if kind.startswith(k)), kind)
    return Said(span, p.fill(pick(p.rng, REPLY[kind]), **(to.fills if to else {})))


# --- records and gold ----------------------------------------------------------------------


def render(p: Persona, turns: list[Turn], start: datetime) -> dict[str, Any]:
    gap = timedelta(days=p.rng.randrange(4, 21), hours=p.rng.randrange(-3, 4))
    records: list[dict[str, Any]] = []
    spans: list[tuple[str, str, int, int, Said]] = []  # turn id, role, start, end, sentence
    for role, session, sentences in turns:
        turn_id = f"{p.chat}:{len(records) + 1:03d}"
        when = start + gap * (session - 1) + timedelta(minutes=2 * len(records))
        text = ""
        for s in sentences:
            text += " " if text else ""
            spans.append((turn_id, role, len(text), len(text) + len(s.text), s))
            text += s.text
        if p.casual and role == "user":  # no full stop at the end of a hurried message
            text = text.removesuffix(".")
            spans[-1] = (*spans[-1][:3], min(spans[-1][3], len(text)), spans[-1][4])
        records.append(_record(p, role, session, turn_id, text, when))
    return {
        "chat_id": p.chat, "scope": records[0]["scope"], "user": p.values["user"],
        "plans": p.plans, "questions": questions(p, spans),
        "not_facts": [
            {"turn_id": t, "start": a, "end": b, "kind": "greeting" if s.kind == "back" else s.kind,
             "text": s.text}
            for t, _, a, b, s in spans if s.kind in NOT_FACTS | {"back"}
        ],
        "dates": _dates(spans, {r["turn_id"]: r["captured_at"] for r in records}),
        "turns": records,
    }  # fmt: skip


def _record(
    p: Persona, role: str, session: int, turn_id: str, text: str, when: datetime
) -> dict[str, Any]:
    user = p.values["user"]
    record = {
        "scope": f"{ORG}/{p.chat}/{user.lower()}", "speaker": user if role == "user" else role,
        "text": text, "captured_at": when.isoformat(), "turn_id": turn_id,
        "session": f"session_{session}", "source_uri": f"{ORG}:{p.chat}/session_{session}",
    }  # fmt: skip
    return record | ({"agent": ASSISTANT, "role": ASSISTANT} if role == ASSISTANT else {})


def questions(p: Persona, spans: list[tuple[str, str, int, int, Said]]) -> list[dict[str, Any]]:
    said: dict[tuple[str, str], list[str]] = {}
    for turn_id, role, _, _, s in spans:
        for topic, value in s.facts if role == "user" else ():
            ids = said.setdefault((topic, value), [])
            ids += [] if turn_id in ids else [turn_id]
    found = []
    for topic, value in p.current.items():
        old = p.old.get(topic, "")
        if (topic, value) in said and topic in QUESTIONS:
            found.append(
                _question(p, topic, value, said[(topic, value)], said.get((topic, old), []))
            )
        if old and f"previous_{topic}" in QUESTIONS:
            found.append(_question(p, f"previous_{topic}", old, said[(topic, old)], []))
    return found


def _question(
    p: Persona, topic: str, answer: str, evidence: list[str], old: list[str]
) -> dict[str, Any]:
    return {"topic": topic, "question": p.fill(pick(p.rng, QUESTIONS[topic])), "answer": answer,
            "evidence": evidence, "superseded": old,
            "superseded_answer": p.old.get(topic) if old else None}  # fmt: skip


def expected_date(d: dict[str, Any], captured: datetime) -> tuple[int | None, str]:
    """(year, ISO value) a date should resolve to: the year said; none for a recurring date
    (a birthday, however it is said); else the next (future tense: a trip, also "our trip is
    in October") or last (past tense) occurrence of the month and day."""
    month, day = d["month"], d["day"]
    year = d["year"]
    if year is None and d["tense"] in ("future", "past"):
        later = (month, day or 0) > (captured.month, captured.day if day else 0)
        ahead = d["tense"] == "future"
        year = captured.year + (0 if later == ahead else (1 if ahead else -1))
    tail = f"{month:02d}" + (f"-{day:02d}" if day else "")
    return year, (f"{year:04d}-{tail}" if year else f"--{tail}")


def _dates(
    spans: list[tuple[str, str, int, int, Said]], when: dict[str, str]
) -> list[dict[str, Any]]:
    found = []
    for turn_id, role, start, end, s in spans:
        for d in s.dates if role == "user" else ():
            captured = datetime.fromisoformat(when[turn_id])
            year, value = expected_date(d, captured)
            found.append({"turn_id": turn_id, "start": start, "end": end, "said": d["said"],
                          "captured_at": when[turn_id], "tense": d["tense"], "expected": value,
                          "year": year})  # fmt: skip
    return found


def chat(index: int, rng: random.Random) -> dict[str, Any]:
    start = datetime(2026, 1, 8, 18, 0, tzinfo=UTC) + timedelta(days=rng.randrange(0, 290))
    p = persona(index, rng, start.date())
    values = job_and_city(p)
    early, late = story(p, values)
    for s in early + late:
        p.current.update(s.facts)
    for topic in ("job", "city"):
        changed = p.plans[topic] != "stable"
        now = values[topic][int(changed)]
        p.current[topic] = now[topic]
        p.values.update(now)
        if changed:
            p.old[topic] = values[topic][0][topic]
    if any(s.kind == "commute_new" for s in late):
        p.current["commute"], p.old["commute"] = p.values["commute_new"], p.values["commute"]
    return render(p, with_replies(p, user_turns(p, early, late)), start)


def generate(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [chat(i, rng) for i in range(count)]


def write(chats: list[dict[str, Any]], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(t, ensure_ascii=False) for c in chats for t in c["turns"]]
    (out / TURNS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    labels = [{k: v for k, v in c.items() if k != "turns"} for c in chats]
    (out / GOLD_FILE).write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return out / TURNS_FILE, out / GOLD_FILE


def load(folder: Path = DATA) -> list[dict[str, Any]]:
    """The chats with their gold labels and turns, as `generate` made them."""
    rows = [json.loads(line) for line in (folder / TURNS_FILE).read_text("utf-8").splitlines()]
    labels = json.loads((folder / GOLD_FILE).read_text("utf-8"))
    return [{**c, "turns": [t for t in rows if t["scope"] == c["scope"]]} for c in labels]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--chats", type=int, default=24)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args()
    chats = generate(args.seed, args.chats)
    paths = write(chats, args.out)
    count = {k: sum(len(c[k]) for c in chats) for k in ("turns", "questions", "not_facts", "dates")}
    print(
        f"{len(chats)} chats, {count['turns']} turns, {count['questions']} questions, "
        f"{count['not_facts']} non-assertion spans, {count['dates']} dates -> "
        + ", ".join(map(str, paths))
    )


if __name__ == "__main__":
    main()
