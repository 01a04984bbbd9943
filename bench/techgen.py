"""bench/techgen: synthetic technical-project conversations with gold labels (a dev set).

    python -m bench.techgen [--seed 16] [--conversations 12] [--out bench/data]

Writes `techchats.jsonl` (every turn, in the form `provmem ingest` reads: scope, speaker,
text, captured_at, turn_id, session, source_uri; the assistant's turns have speaker and
agent "assistant") and `techchats-gold.json` (per conversation: knowledge updates,
contradiction pairs, gold observations and the code/markup character ranges of every turn).

Each conversation is a user and an assistant working on one software project over 2-3
sessions (30-60 turns). User turns carry markdown, fenced code, inline code, shell commands,
file paths, package@version pins and error messages; values (latency, counts, versions, ...)
are stated, then changed later, directly, in passing inside another sentence, or in other
words; "never" statements and plain values are contradicted later with no change cue;
preferences, decisions, requests to the assistant, small talk and greetings fill the rest.
Wording comes from templates with many alternatives, so this is for development: it is not
the measure. Deterministic for a seed (Python's `random.Random`).
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
TURNS_FILE = "techchats.jsonl"
GOLD_FILE = "techchats-gold.json"
ORG = "techbench"
ASSISTANT = "assistant"

USERS = [
    "Maya", "Ravi", "Elena", "Tomas", "Priya", "Jonas", "Aiko", "Marcus", "Sofia", "Kwame",
    "Lena", "Diego", "Hana", "Oliver", "Nadia", "Felix",
]  # fmt: skip
MATES = ["Sam", "Ines", "Yuki", "Arjun", "Chloe", "Bruno", "Zara", "Leo"]
PROJECTS = [
    "Ledgerly", "TrailMap", "Brewlog", "Quillstack", "Parcelpoint", "Greenhouse", "Tidepool",
    "Beacon", "Shelfie", "Pawprint", "Loomwork", "Harborline", "Stepcount", "Fieldnote",
]  # fmt: skip
PURPOSES = [
    "an invoicing tool for freelancers", "a hiking route planner", "a home-brewing journal",
    "a blogging platform", "a parcel tracking service", "a plant watering scheduler",
    "a tide and surf forecast app", "a status page service", "a book lending app for offices",
    "a pet adoption site", "a weaving pattern library", "a ferry booking system",
    "a step challenge app for teams", "a field research notebook",
]  # fmt: skip


@dataclass(frozen=True)
class Stack:
    framework: str
    language: str
    package: str
    versions: tuple[str, str]
    ext: str
    run: str
    test: str
    route: str
    error: str


STACKS = [
    Stack(
        "Flask",
        "python",
        "flask",
        ("2.3.3", "3.0.2"),
        "py",
        "flask --app app run --debug",
        "pytest -q",
        '@app.route("/{path}")\ndef {name}():\n    return jsonify(items=[])',
        'Traceback (most recent call last):\n  File "app/routes.py", line 42, in {name}\n'
        "    user = db.session.get(User, user_id)\nAttributeError: 'NoneType' object has no "
        "attribute 'session'",
    ),
    Stack(
        "FastAPI",
        "python",
        "fastapi",
        ("0.110.0", "0.115.4"),
        "py",
        "uvicorn app.main:app --reload",
        "pytest -x",
        '@router.get("/{path}")\nasync def {name}() -> list[Item]:\n    return await repo.all()',
        'Traceback (most recent call last):\n  File "app/main.py", line 18, in {name}\n'
        "    return await repo.all()\npydantic_core._pydantic_core.ValidationError: 1 validation "
        "error for Item",
    ),
    Stack(
        "Django",
        "python",
        "django",
        ("4.2.11", "5.0.6"),
        "py",
        "python manage.py runserver",
        "python manage.py test",
        "def {name}(request):\n    items = Item.objects.filter(owner=request.user)\n"
        '    return render(request, "{path}.html", {{"items": items}})',
        "django.db.utils.OperationalError: no such table: core_item\n"
        '  File "core/views.py", line 12, in {name}',
    ),
    Stack(
        "Express",
        "javascript",
        "express",
        ("4.18.2", "4.21.1"),
        "js",
        "npm run dev",
        "npm test",
        'router.get("/{path}", async (req, res) => {{\n  res.json(await db.all());\n}});',
        "TypeError: Cannot read properties of undefined (reading 'all')\n"
        "    at /srv/app/routes/{name}.js:7:28",
    ),
]


def pick(rng: random.Random, options: Sequence[str]) -> str:
    return options[rng.randrange(len(options))]


@dataclass
class Persona:
    conv: str
    user: str
    mate: str
    project: str
    purpose: str
    stack: Stack
    rng: random.Random
    wording: Wording

    def fill(self, template: str, **extra: str) -> str:
        values = {
            "user": self.user, "mate": self.mate, "project": self.project,
            "purpose": self.purpose, "fw": self.stack.framework, "pkg": self.stack.package,
            "lang": self.stack.language.capitalize(), "ext": self.stack.ext,
        }  # fmt: skip
        values.update(extra)
        return template.format(**values)

    def choose(self, options: Sequence[str], **extra: str) -> str:
        return self.fill(pick(self.rng, options), **extra)


# --- knowledge updates: (subject, attribute) with an original and a later value ------------


@dataclass(frozen=True)
class UpdateSpec:
    key: str
    subject: str
    attribute: str
    values: Callable[[random.Random, Stack], tuple[str, str]]
    original: tuple[str, ...]
    direct: tuple[str, ...]
    passing: tuple[str, ...]
    paraphrase: tuple[str, ...]
    question: tuple[str, ...]
    observation: str


def _ms(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.choice([650, 720, 800, 900, 1100, 1400])
    return f"{old}ms", f"{rng.choice([180, 210, 250, 290, 340])}ms"


def _commits(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(90, 400)
    return str(old), str(old + rng.randrange(8, 60))


def _coverage(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(41, 70)
    return f"{old}%", f"{old + rng.randrange(6, 25)}%"


def _tests(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(20, 140)
    return str(old), str(old + rng.randrange(12, 60))


def _version(_: random.Random, stack: Stack) -> tuple[str, str]:
    return stack.versions


def _python(rng: random.Random, _: Stack) -> tuple[str, str]:
    return rng.choice([("3.9", "3.11"), ("3.10", "3.12"), ("3.11", "3.13")])


def _image(rng: random.Random, _: Stack) -> tuple[str, str]:
    return f"{rng.choice([1.1, 1.2, 1.4, 1.8])}GB", f"{rng.choice([240, 310, 380, 450])}MB"


def _build(rng: random.Random, _: Stack) -> tuple[str, str]:
    return f"{rng.randrange(12, 25)} minutes", f"{rng.randrange(4, 9)} minutes"


def _team(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(2, 5)
    return str(old), str(old + rng.randrange(1, 4))


def _users(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(8, 30) * 100
    return f"{old:,}", f"{old + rng.randrange(4, 20) * 100:,}"


def _region(rng: random.Random, _: Stack) -> tuple[str, str]:
    old, new = rng.sample(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2"], 2)
    return old, new


def _launch(rng: random.Random, _: Stack) -> tuple[str, str]:
    month = rng.choice(["April", "May", "June"])
    day = rng.randrange(3, 20)
    later = rng.choice(["July", "August", "September"])
    return f"{month} {day}", f"{later} {rng.randrange(1, 28)}"


def _issues(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(30, 90)
    return str(old), str(old - rng.randrange(9, 25))


def _errors(rng: random.Random, _: Stack) -> tuple[str, str]:
    return f"{rng.choice([2.5, 3.1, 4.2, 1.8])}%", f"{rng.choice([0.3, 0.4, 0.6, 0.9])}%"


UPDATES = [
    UpdateSpec(
        "latency", "the {project} API", "p95 latency", _ms,
        ("Right now the p95 latency of the API is {old}, which is way too slow.",
         "The API's p95 response time is about {old} at the moment.",
         "Our p95 latency sits at {old} on the `/search` endpoint."),
        ("Good news: the p95 latency is now {new}.",
         "Quick update, p95 latency went from {old} to {new} after the fix."),
        ("After adding the index the p95 is now down to {new}, so the next thing is logging.",
         "Since the query change (the p95 has recently improved to {new}) I want to tidy up "
         "the handlers."),
        ("Response times have recently improved to {new} at the 95th percentile.",
         "Requests are much snappier, the slowest 5% finish within {new} now."),
        ("What is the current p95 latency of the {project} API?",
         "How fast is the {project} API at p95 now?"),
        "The {project} API's p95 latency is {value}.",
    ),
    UpdateSpec(
        "commits", "the {project} repository", "commit count", _commits,
        ("The repo has {old} commits so far.", "We have {old} commits on `main` right now."),
        ("The repo is at {new} commits now.", "Commit count update: {new} commits on `main`."),
        ("I pushed the fixes last night, we're at {new} commits now, and CI is green.",
         "With the refactor merged (the history has now reached {new} commits) I want to tag "
         "a release."),
        ("The history of `main` has grown to {new} commits.",
         "Git log shows {new} commits in total these days."),
        ("How many commits does the {project} repository have?",
         "What is the commit count of {project} now?"),
        "The {project} repository has {value} commits.",
    ),
    UpdateSpec(
        "coverage", "the {project} test suite", "coverage", _coverage,
        ("Test coverage is at {old} right now.", "Our coverage sits at {old} according to "
         "`coverage report`."),
        ("Coverage is up to {new} now.", "Coverage went up from {old} to {new}."),
        ("The new fixtures helped, coverage is at {new} now, but the slow tests still bug me.",
         "Once the parser tests landed (coverage climbed to {new}) I moved on to the API."),
        ("`coverage report` now says {new} of the lines are exercised.",
         "We now exercise {new} of the codebase in tests."),
        ("What is the test coverage of {project} now?",
         "How much of {project} is covered by tests?"),
        "The {project} test coverage is {value}.",
    ),
    UpdateSpec(
        "tests", "the {project} test suite", "test count", _tests,
        ("The suite has {old} tests at this point.", "We have {old} tests and they all pass."),
        ("We have {new} tests now.", "The test count went from {old} to {new}."),
        ("I added the edge cases yesterday, so the suite is at {new} tests now and still fast.",
         "The CI run (all {new} tests now) took a while, can we parallelise it?"),
        ("`{test}` collects {new} test cases these days.",
         "The number of test cases has grown to {new}."),
        ("How many tests does the {project} suite have?",
         "What is the size of the {project} test suite?"),
        "The {project} test suite has {value} tests.",
    ),
    UpdateSpec(
        "version", "{project}", "{fw} version", _version,
        ("We're pinned to `{pkg}=={old}` in the requirements.",
         "The app runs on {pkg}@{old} for now."),
        ("We upgraded {fw} to {new}.", "I bumped {pkg} from {old} to {new}."),
        ("Since I bumped {pkg} to {new} last night the deprecation warnings are gone, nice.",
         "Everything still works after the upgrade to {pkg}@{new}, so let's look at auth."),
        ("The requirements now pin `{pkg}=={new}`.",
         "We're on the {new} release of {fw} these days."),
        ("Which {fw} version does {project} use?",
         "What version of {pkg} is {project} on?"),
        "{project} uses {fw} {value}.",
    ),
    UpdateSpec(
        "python", "{project}", "Python version", _python,
        ("The service runs on Python {old}.", "We're still on Python {old} in production."),
        ("We moved to Python {new}.", "Production runs Python {new} now."),
        ("The container build on Python {new} went fine, the only change was one import.",
         "Now that we're on Python {new} I'd like to use the new typing features."),
        ("The base image is `python:{new}-slim` now.",
         "The interpreter in production is {new} these days."),
        ("Which Python version does {project} run on?",
         "What Python version is {project} on in production?"),
        "{project} runs on Python {value}.",
    ),
    UpdateSpec(
        "image", "the {project} Docker image", "image size", _image,
        ("The Docker image is {old}, which is ridiculous.",
         "Our container image weighs {old} right now."),
        ("The image is {new} now.", "The image size went from {old} to {new}."),
        ("With the multi-stage build the image is down to {new}, so deploys are faster.",
         "Pulling the image (only {new} now) takes seconds, so can we try the slim base?"),
        ("`docker images` lists the app image at {new} these days.",
         "The container we ship is {new} after the cleanup."),
        ("How big is the {project} Docker image?", "What is the size of the {project} image?"),
        "The {project} Docker image is {value}.",
    ),
    UpdateSpec(
        "build", "the {project} CI pipeline", "build time", _build,
        ("A full CI run takes {old}.", "The pipeline needs about {old} per push."),
        ("CI takes {new} now.", "The build time went from {old} to {new}."),
        ("Caching the wheels helped a lot, the pipeline finishes in {new} now.",
         "Once CI got faster (a run is {new} now) I started pushing smaller commits."),
        ("A push is green or red within {new} these days.",
         "The whole workflow completes in {new} lately."),
        ("How long does a {project} CI run take?", "What is the build time of {project} CI?"),
        "A {project} CI run takes {value}.",
    ),
    UpdateSpec(
        "team", "the {project} team", "team size", _team,
        ("There are {old} developers on the team.", "We are {old} devs working on this."),
        ("The team has {new} developers now.", "We grew from {old} to {new} developers."),
        ("Two people joined this week, so we're {new} devs now and reviews are quicker.",
         "With {new} of us on the team now I want a proper branching model."),
        ("Headcount on the project is {new} engineers these days.",
         "{new} engineers work on it now."),
        ("How many developers work on {project}?", "What is the size of the {project} team?"),
        "The {project} team has {value} developers.",
    ),
    UpdateSpec(
        "users", "{project}", "monthly active users", _users,
        ("We have about {old} monthly active users.", "{project} has roughly {old} MAU."),
        ("We're at {new} monthly active users now.", "MAU went from {old} to {new}."),
        ("Traffic is growing, we crossed {new} monthly active users, so the cache matters.",
         "The launch post worked (we have {new} monthly users now) and the logs are noisy."),
        ("Analytics show {new} people using it every month.",
         "The monthly user count has climbed to {new}."),
        ("How many monthly active users does {project} have?",
         "What is the monthly active user count of {project}?"),
        "{project} has {value} monthly active users.",
    ),
    UpdateSpec(
        "region", "the {project} database", "hosting region", _region,
        ("The database is hosted in {old}.", "Our Postgres instance lives in `{old}`."),
        ("We moved the database to {new}.", "The database region changed from {old} to {new}."),
        ("Since we moved the database to {new} the latency for European users is better.",
         "The migration to {new} went smoothly, so now I'd like to set up backups."),
        ("The Postgres instance runs in {new} these days.",
         "Our data now sits in the {new} region."),
        ("In which region is the {project} database hosted?",
         "Where does the {project} database run?"),
        "The {project} database is hosted in {value}.",
    ),
    UpdateSpec(
        "launch", "the {project} beta", "launch date", _launch,
        ("The beta launch is planned for {old}.", "We want to ship the beta on {old}."),
        ("We moved the beta launch to {new}.", "The beta date changed from {old} to {new}."),
        ("Since the beta slipped to {new} I have time to fix the onboarding flow.",
         "With the launch pushed to {new} we can do the accessibility pass first."),
        ("The beta is scheduled for {new} now.", "Public beta happens on {new} these days."),
        ("When is the {project} beta launch?", "What is the launch date of the {project} beta?"),
        "The {project} beta launch is on {value}.",
    ),
    UpdateSpec(
        "issues", "the {project} tracker", "open issues", _issues,
        ("There are {old} open issues on the tracker.", "The backlog has {old} open issues."),
        ("We're down to {new} open issues.", "Open issues went from {old} to {new}."),
        ("The bug bash worked, only {new} open issues are left, mostly docs.",
         "After triage (down to {new} open issues) I want to label the good first ones."),
        ("The tracker lists {new} open tickets these days.",
         "Only {new} tickets remain unresolved."),
        ("How many open issues does {project} have?",
         "What is the number of open issues of {project}?"),
        "{project} has {value} open issues.",
    ),
    UpdateSpec(
        "errors", "the {project} API", "error rate", _errors,
        ("The API error rate is {old}, mostly 502s.", "About {old} of requests fail right now."),
        ("The error rate is {new} now.", "The error rate dropped from {old} to {new}."),
        ("With the retry fix the error rate is down to {new}, so the alerts are quiet.",
         "Now that failures are rare (the error rate is {new}) I can focus on features."),
        ("Only {new} of requests fail these days.", "The share of failed requests is {new}."),
        ("What is the error rate of the {project} API?",
         "How many requests of the {project} API fail?"),
        "The {project} API error rate is {value}.",
    ),
]  # fmt: skip


# --- contradictions: a later statement that negates or is incompatible with an earlier one --


@dataclass(frozen=True)
class ContradictionSpec:
    key: str
    kind: str  # "negation" (never X / did X) or "incompatible" (two values, no change cue)
    first: tuple[str, ...]
    second: tuple[str, ...]
    question: tuple[str, ...]
    observations: tuple[str, str]


CONTRADICTIONS = [
    ContradictionSpec(
        "routes", "negation",
        ("I've never written any {fw} routes in this project, {mate} did all of them.",
         "Honestly I have never touched the {fw} routing code in {project}."),
        ("I'm implementing the homepage route with {fw} right now.",
         "I wrote the `/orders` route in {fw} this morning and it works."),
        ("Has {user} written {fw} routes in {project}?",),
        ("{user} has never written {fw} routes in {project}.",
         "{user} writes {fw} routes for {project}."),
    ),
    ContradictionSpec(
        "docker", "negation",
        ("I've never used Docker for {project}, everything runs on my laptop.",
         "We have never containerised {project}, it's all bare metal."),
        ("I rebuilt the Docker image for {project} this morning.",
         "The `docker compose up` for {project} takes ages on my machine."),
        ("Does {user} use Docker for {project}?",),
        ("{user} has never used Docker for {project}.", "{user} uses Docker for {project}."),
    ),
    ContradictionSpec(
        "tests", "negation",
        ("I have never written a single test for the billing module.",
         "Nobody ever wrote tests for the billing module, me included."),
        ("I wrote tests for the billing module yesterday.",
         "My tests for the billing module caught a rounding bug."),
        ("Has {user} written tests for the billing module?",),
        ("{user} has never written tests for the billing module.",
         "{user} wrote tests for the billing module."),
    ),
    ContradictionSpec(
        "ci", "negation",
        ("We've never had CI on this repo, I just run the tests by hand.",
         "There has never been any CI for {project}."),
        ("Our GitHub Actions pipeline failed again on the lint step.",
         "The CI workflow for {project} is green again."),
        ("Does {project} have CI?",),
        ("{project} has never had CI.", "{project} has a CI pipeline."),
    ),
    ContradictionSpec(
        "orm", "negation",
        ("I never use an ORM, I write raw SQL everywhere in {project}.",
         "I have never used SQLAlchemy or any other ORM."),
        ("All my tables are SQLAlchemy models now.",
         "I'm using the ORM for every query in the reports module."),
        ("Does {user} use an ORM?",),
        ("{user} never uses an ORM.", "{user} uses an ORM."),
    ),
    ContradictionSpec(
        "typescript", "negation",
        ("I have never used TypeScript in {project}.",
         "There is no TypeScript anywhere in {project} and never was."),
        ("I converted the frontend utils to TypeScript last week.",
         "The TypeScript compiler is complaining about the `utils.ts` types."),
        ("Does {project} use TypeScript?",),
        ("{user} has never used TypeScript in {project}.", "{project} uses TypeScript."),
    ),
    ContradictionSpec(
        "windows", "negation",
        ("I've never run {project} on Windows.", "Nobody on the team has ever tried Windows."),
        ("I ran the test suite on my Windows laptop and it passed.",
         "On Windows the paths in `settings.{ext}` break."),
        ("Has {user} run {project} on Windows?",),
        ("{user} has never run {project} on Windows.", "{user} runs {project} on Windows."),
    ),
    ContradictionSpec(
        "deploy", "incompatible",
        ("We deploy {project} to Heroku.", "{project} is hosted on Heroku."),
        ("{project} runs on a single DigitalOcean droplet.",
         "Our production box for {project} is a DigitalOcean droplet."),
        ("Where is {project} deployed?",),
        ("{project} is deployed on Heroku.", "{project} runs on a DigitalOcean droplet."),
    ),
    ContradictionSpec(
        "database", "incompatible",
        ("{project} stores everything in PostgreSQL.", "Our only database is PostgreSQL."),
        ("All of {project}'s data lives in MongoDB.",
         "The MongoDB collections hold every record of {project}."),
        ("Which database does {project} use?",),
        ("{project} stores its data in PostgreSQL.", "{project} stores its data in MongoDB."),
    ),
    ContradictionSpec(
        "solo", "incompatible",
        ("I'm the only developer on {project}.", "I work on {project} completely alone."),
        ("{mate} and I split the {project} backlog between us every Monday.",
         "My co-developer {mate} reviews every pull request I open."),
        ("Does {user} work alone on {project}?",),
        ("{user} is the only developer on {project}.", "{user} works on {project} with {mate}."),
    ),
    ContradictionSpec(
        "frontend", "incompatible",
        ("The {project} frontend is built with React.", "Our frontend is a React app."),
        ("The {project} frontend is written in Vue.",
         "Our Vue frontend talks to the API through axios."),
        ("Which framework is the {project} frontend built with?",),
        ("The {project} frontend is built with React.", "The {project} frontend is built with "
         "Vue."),
    ),
    ContradictionSpec(
        "license", "incompatible",
        ("{project} is MIT licensed.", "The {project} code is under the MIT license."),
        ("{project} is released under the GPL.", "The {project} repository is GPL-3.0."),
        ("Which license does {project} use?",),
        ("{project} is MIT licensed.", "{project} is released under the GPL."),
    ),
]  # fmt: skip


# --- the other user turns: preferences, decisions, small talk, requests, greetings, code ----

PREFERENCES = [
    (
        "I prefer pytest over unittest, the fixtures are just nicer.",
        "{user} prefers pytest over unittest.",
    ),
    ("I like to keep functions under 30 lines.", "{user} likes to keep functions under 30 lines."),
    (
        "I'd rather use type hints everywhere, even in tests.",
        "{user} prefers type hints everywhere.",
    ),
    ("I prefer tabs, but the team uses spaces, so spaces it is.", "{user} prefers tabs."),
    ("I really like small pull requests, one concern each.", "{user} likes small pull requests."),
    ("I prefer dark mode in every editor, VS Code included.", "{user} prefers dark mode."),
    ("I like writing the docs before the code.", "{user} likes writing docs before code."),
    (
        "I prefer Postgres full-text search over adding Elasticsearch.",
        "{user} prefers Postgres full-text search over Elasticsearch.",
    ),
]
DECISIONS = [
    (
        "We decided to use Redis for the session cache.",
        "{user} decided to use Redis for the session cache.",
    ),
    (
        "I decided to drop Python 2 style string formatting everywhere.",
        "{user} decided to drop old-style string formatting.",
    ),
    (
        "We agreed to release every second Thursday.",
        "{user}'s team releases every second Thursday.",
    ),
    ("I chose Celery for the background jobs.", "{user} chose Celery for background jobs."),
    ("We're going with Sentry for error tracking.", "{user} chose Sentry for error tracking."),
    (
        "I decided to move the config to environment variables.",
        "{user} decided to move the configuration to environment variables.",
    ),
    ("We picked Stripe for the payments.", "{user} picked Stripe for payments."),
]
SMALL_TALK = [
    (
        "My dog Pixel chewed through my laptop charger, so I'm on the backup one.",
        "{user} has a dog named Pixel.",
    ),
    (
        "I'm writing this from a cafe in Lisbon, the wifi is surprisingly good.",
        "{user} is in Lisbon.",
    ),
    ("I ran a half marathon on Sunday, my legs are still sore.", "{user} ran a half marathon."),
    (
        "My daughter started school this week, so mornings are chaos.",
        "{user} has a daughter who started school.",
    ),
    ("I've been learning the cello in the evenings.", "{user} is learning the cello."),
    ("It's raining all week here in Manchester.", "{user} lives in Manchester."),
    (
        "I just got back from a climbing trip in the Dolomites.",
        "{user} went on a climbing trip in the Dolomites.",
    ),
    ("We adopted a cat called Miso last weekend.", "{user} adopted a cat named Miso."),
]
GREETINGS = [
    "Hi again!", "Hey, back at it.", "Good morning!", "Hello, me again.", "Hey there!",
    "Morning, hope you're well.", "Hi, quick session today.",
]  # fmt: skip
THANKS = [
    "Thanks, that worked!", "Perfect, thank you.", "Great, thanks a lot.", "Cheers, that fixed it.",
    "Awesome, appreciated!", "Thank you, that's exactly what I needed.",
]  # fmt: skip
REQUESTS = [
    "Can you fill in the missing handler in `{path}`?",
    "Could you write the test for `{func}` for me?",
    "Please review this and tell me what's wrong.",
    "Can you explain why this happens?",
    "Would you suggest a cleaner way to do this?",
    "Can you give me the command to run just the failing test?",
    "Could you draft the docstring for `{func}`?",
    "Please rewrite it so it doesn't block the event loop.",
]
PATHS = [
    "app/routes.{ext}", "app/models.{ext}", "services/billing.{ext}", "tests/test_api.{ext}",
    "config/settings.{ext}", "app/auth.{ext}", "scripts/seed.{ext}", "app/search.{ext}",
]  # fmt: skip
FUNCS = ["list_orders", "create_invoice", "get_user", "search_items", "refresh_token",
         "export_csv", "send_reminder", "sync_inventory"]  # fmt: skip
CODE_INTROS = [
    "Here's the handler I have so far:", "This is what the route looks like:",
    "The relevant part of `{path}`:", "Current version of the function:",
    "I'm stuck on this bit:",
]  # fmt: skip
ERROR_INTROS = [
    "Running `{run}` crashes with this:", "I get this error when I hit the endpoint:",
    "The logs show this traceback:", "This blows up in staging:",
]  # fmt: skip
WORK_NOTES = [
    ("Today I'm refactoring the {module} module.", "{user} is refactoring the {module} module."),
    ("I spent the morning on the {module} code.", "{user} worked on the {module} code."),
    (
        "The {module} part is what I'm focusing on this week.",
        "{user} is focusing on the {module} module.",
    ),
    (
        "I'm adding rate limiting to the {module} endpoints.",
        "{user} is adding rate limiting to the {module} endpoints.",
    ),
    ("Next up for me is the {module} page.", "{user} is working on the {module} page next."),
    (
        "I finally split the {module} logic into smaller functions.",
        "{user} split the {module} logic into smaller functions.",
    ),
    (
        "The {module} feature is behind a flag until the beta.",
        "The {module} feature is behind a feature flag.",
    ),
]
MODULES = ["billing", "search", "auth", "export", "notifications", "reporting", "onboarding",
           "inventory", "admin"]  # fmt: skip
STATUS_ITEMS = [
    "wired up the login form", "fixed the CORS headers", "moved secrets out of the repo",
    "added pagination to `/items`", "cleaned up the migrations", "renamed the `utils` module",
    "set up pre-commit hooks", "wrote the seed script",
]  # fmt: skip


# --- assistant turns -------------------------------------------------------------------------

RECOMMENDATIONS = [
    "I'd recommend adding an index on the column you filter by; it usually fixes this kind of "
    "slowdown.",
    "You should move that call out of the request path and into a background job.",
    "I suggest wrapping the session in a context manager so it always closes.",
    "A cleaner option is to validate the payload once at the boundary and pass typed objects "
    "around.",
    "I'd pin the dependency and let Dependabot propose upgrades.",
    "Consider splitting the module: routing in one file, the queries in another.",
    "The simplest fix is to read the value from the environment with a default.",
    "It's worth adding a regression test before changing anything here.",
]
ASSISTANT_OPENERS = [
    "Sure!", "Good question.", "Got it.", "Happy to help.", "Makes sense.", "Nice progress!",
    "Right, that error is common.", "Let's fix that.",
]  # fmt: skip
ASSISTANT_CLOSERS = [
    "Let me know if the tests still fail.", "Want me to add the test as well?",
    "Run `{test}` again after this change.", "That should be it.",
    "If it still fails, paste the full traceback.", "",
]  # fmt: skip
ECHOES = [
    "Congratulations on getting it to {value}!", "Nice, {value} is a solid improvement.",
    "Great to hear it's {value} now.",
]  # fmt: skip


@dataclass
class Turn:
    speaker: str
    text: str
    observations: list[str] = field(default_factory=list)


@dataclass
class Plan:
    """The user turns of one conversation, by user-turn index."""

    slots: dict[int, list[tuple[str, str, list[str]]]] = field(default_factory=dict)
    updates: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)

    def put(self, index: int, kind: str, text: str, observations: list[str]) -> None:
        self.slots.setdefault(index, []).append((kind, text, observations))


@dataclass(frozen=True)
class Wording:
    """The templates of the labelled sentences: the base set or bench/techvaried's."""

    updates: Sequence[UpdateSpec]
    contradictions: Sequence[ContradictionSpec]
    clashes: dict[str, str]


def wording(name: str) -> Wording:
    if name == "varied":
        from bench import techvaried

        return Wording(techvaried.UPDATES, techvaried.CONTRADICTIONS, techvaried.CLASHES)
    return Wording(UPDATES, CONTRADICTIONS, CLASHES)


def place_updates(p: Persona, plan: Plan, n_user: int, count: int) -> None:
    for spec in p.rng.sample(list(p.wording.updates), count):
        old, new = spec.values(p.rng, p.stack)
        start = p.rng.randrange(0, n_user // 3)
        later = p.rng.randrange(max(start + 4, n_user // 2), n_user)
        style = pick(p.rng, ("direct", "passing", "paraphrase"))
        extra = {"old": old, "new": new, "test": p.stack.test}
        first = p.choose(spec.original, **extra)
        second = p.choose(getattr(spec, style), **extra)
        plan.put(start, "update-original", first, [p.fill(spec.observation, value=old)])
        plan.put(later, "update-new", second, [p.fill(spec.observation, value=new)])
        plan.updates.append(
            {
                "key": spec.key,
                "subject": p.fill(spec.subject),
                "attribute": p.fill(spec.attribute),
                "original": {"value": old, "user_turn": start, "text": first},
                "updated": {"value": new, "user_turn": later, "text": second},
                "style": style,
                "question": p.choose(spec.question),
            }
        )


# A contradiction that an update's statements would contradict too (unlabelled) is left out.
CLASHES = {"team": "solo", "build": "ci", "image": "docker", "tests": "tests", "region": "database"}


def place_contradictions(p: Persona, plan: Plan, n_user: int, count: int) -> None:
    clashing = {p.wording.clashes.get(u["key"]) for u in plan.updates}
    allowed = [c for c in p.wording.contradictions if c.key not in clashing]
    for spec in p.rng.sample(allowed, count):
        start = p.rng.randrange(0, n_user // 2)
        later = p.rng.randrange(max(start + 4, n_user // 2), n_user)
        first, second = p.choose(spec.first), p.choose(spec.second)
        plan.put(start, "contradiction-first", first, [p.fill(spec.observations[0])])
        plan.put(later, "contradiction-second", second, [p.fill(spec.observations[1])])
        plan.contradictions.append(
            {
                "key": spec.key,
                "kind": spec.kind,
                "first": {"user_turn": start, "text": first},
                "second": {"user_turn": later, "text": second},
                "question": p.choose(spec.question),
            }
        )


def place_background(p: Persona, plan: Plan, n_user: int) -> None:
    for pool in (PREFERENCES, DECISIONS, SMALL_TALK):
        for text, obs in p.rng.sample(pool, p.rng.randrange(1, 3)):
            plan.put(p.rng.randrange(n_user), "background", p.fill(text), [p.fill(obs)])


def fence(lang: str, body: str) -> str:
    return f"```{lang}\n{body}\n```"


def code_block(p: Persona) -> str:
    path, func = p.choose(PATHS), pick(p.rng, FUNCS)
    roll = p.rng.random()
    if roll < 0.4:
        body = p.stack.route.format(path=func.replace("_", "-"), name=func)
        return p.choose(CODE_INTROS, path=path) + "\n\n" + fence(p.stack.language, body)
    if roll < 0.7:
        body = p.stack.error.format(name=func)
        return p.choose(ERROR_INTROS, run=p.stack.run) + "\n\n" + fence("", body)
    commands = [p.stack.test, f"git checkout -b fix/{func.replace('_', '-')}", p.stack.run]
    shell = "\n".join(f"$ {c}" for c in p.rng.sample(commands, 2))
    return "What I ran:\n\n" + fence("bash", shell)


def status_list(p: Persona) -> str:
    items = p.rng.sample(STATUS_ITEMS, p.rng.randrange(2, 4))
    lead = pick(p.rng, ("Status since last time:", "Done so far:", "Progress today:"))
    return lead + "\n\n" + "\n".join(f"- {item}" for item in items)


def status_table(p: Persona) -> str:
    rows = [f"| `{pick(p.rng, FUNCS)}` | {p.rng.randrange(3, 90)} ms |" for _ in range(3)]
    return "Timings from the profiler:\n\n| function | time |\n|---|---|\n" + "\n".join(rows)


def user_turn(p: Persona, parts: list[tuple[str, str, list[str]]], first_of_session: bool) -> Turn:
    chunks: list[str] = []
    observations: list[str] = []
    if first_of_session:
        chunks.append(pick(p.rng, GREETINGS))
    if not parts or p.rng.random() < 0.3:
        note, obs = WORK_NOTES[p.rng.randrange(len(WORK_NOTES))]
        module = pick(p.rng, MODULES)
        chunks.append(p.fill(note, module=module))
        observations.append(p.fill(obs, module=module))
    for _, text, obs in parts:
        chunks.append(text)
        observations += obs
    roll = p.rng.random()
    if roll < 0.45:
        chunks.append(code_block(p))
    elif roll < 0.6:
        chunks.append(status_list(p))
    elif roll < 0.67:
        chunks.append(status_table(p))
    elif not parts and roll < 0.8:
        chunks.append(pick(p.rng, THANKS))
    if p.rng.random() < 0.55 or not parts:
        chunks.append(p.choose(REQUESTS, path=p.choose(PATHS), func=pick(p.rng, FUNCS)))
    return Turn(p.user, _join(chunks), observations)


def _join(chunks: list[str]) -> str:
    """Prose chunks share a paragraph; a block (code, list, table) stands apart."""
    out, after_block = "", False
    for chunk in chunks:
        block = "\n" in chunk
        gap = "\n\n" if block or after_block else " "
        out = chunk if not out else out + gap + chunk
        after_block = block
    return out


def assistant_turn(p: Persona, echo: str | None) -> Turn:
    func = pick(p.rng, FUNCS)
    chunks = [pick(p.rng, ASSISTANT_OPENERS)]
    if echo is not None:
        chunks.append(pick(p.rng, ECHOES).format(value=echo))
    chunks.append(pick(p.rng, RECOMMENDATIONS))
    if p.rng.random() < 0.6:
        body = p.stack.route.format(path=func.replace("_", "-"), name=func)
        chunks.append("For example:\n\n" + fence(p.stack.language, body))
    chunks.append(p.fill(pick(p.rng, ASSISTANT_CLOSERS), test=p.stack.test))
    return Turn(ASSISTANT, _join([c for c in chunks if c]))


def conversation(index: int, rng: random.Random, words: Wording) -> dict[str, Any]:
    p = Persona(
        conv=f"tech-{index + 1:02d}",
        user=USERS[index % len(USERS)],
        mate=pick(rng, MATES),
        project=PROJECTS[index % len(PROJECTS)],
        purpose=PURPOSES[index % len(PURPOSES)],
        stack=STACKS[index % len(STACKS)],
        rng=rng,
        wording=words,
    )
    n_user = rng.randrange(15, 31)
    plan = Plan()
    place_updates(p, plan, n_user, rng.randrange(3, 5))
    place_contradictions(p, plan, n_user, rng.randrange(3, 5))
    place_background(p, plan, n_user)
    intro = p.fill("I'm building {project}, {purpose}, with {fw} and {lang}.")
    plan.slots.setdefault(0, []).insert(
        0, ("intro", intro, [p.fill("{user} is building {project} with {fw}.")])
    )
    return render(p, plan, n_user)


def render(p: Persona, plan: Plan, n_user: int) -> dict[str, Any]:
    sessions = _sessions(p.rng, n_user)
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC) + timedelta(days=p.rng.randrange(0, 40))
    turns: list[dict[str, Any]] = []
    user_turn_ids: dict[int, str] = {}
    echoes = {u["updated"]["user_turn"]: u["updated"]["value"] for u in plan.updates}
    for i in range(n_user):
        session = sessions[i]
        first = i == 0 or sessions[i - 1] != session
        when = start + timedelta(days=7 * (session - 1), minutes=4 * i)
        parts = sorted(plan.slots.get(i, []), key=lambda s: s[0] != "intro")
        user = user_turn(p, parts, first)
        echo = echoes.get(i) if p.rng.random() < 0.3 else None
        for turn, offset in ((user, 0), (assistant_turn(p, echo), 2)):
            turn_id = f"{p.conv}:{len(turns) + 1:03d}"
            if turn.speaker != ASSISTANT:
                user_turn_ids[i] = turn_id
            turns.append(_record(p, turn, turn_id, session, when + timedelta(minutes=offset)))
    return _gold(p, plan, turns, user_turn_ids)


def _sessions(rng: random.Random, n_user: int) -> list[int]:
    count = rng.randrange(2, 4)
    cuts = sorted(rng.sample(range(3, n_user - 3), count - 1))
    return [1 + sum(i >= c for c in cuts) for i in range(n_user)]


def _record(p: Persona, turn: Turn, turn_id: str, session: int, when: datetime) -> dict[str, Any]:
    record: dict[str, Any] = {
        "scope": f"{ORG}/{p.conv}/{p.user.lower()}",
        "speaker": turn.speaker,
        "text": turn.text,
        "captured_at": when.isoformat(),
        "turn_id": turn_id,
        "session": f"session_{session}",
        "source_uri": f"techbench:{p.conv}/session_{session}",
    }
    if turn.speaker == ASSISTANT:
        record["agent"] = ASSISTANT
        record["role"] = "assistant"
    record["_observations"] = turn.observations
    return record


def _gold(
    p: Persona, plan: Plan, turns: list[dict[str, Any]], ids: dict[int, str]
) -> dict[str, Any]:
    for group in (plan.updates, plan.contradictions):
        for item in group:
            for side in ("original", "updated", "first", "second"):
                if side in item:
                    item[side]["turn_id"] = ids[item[side].pop("user_turn")]
    observations = [[o, t["turn_id"]] for t in turns for o in t.pop("_observations")]
    return {
        "conversation_id": p.conv,
        "scope": turns[0]["scope"],
        "user": p.user,
        "project": p.project,
        "framework": p.stack.framework,
        "turns": turns,
        "updates": plan.updates,
        "contradictions": plan.contradictions,
        "observations": observations,
        "markup": {t["turn_id"]: markup_ranges(t["text"]) for t in turns},
    }


# --- gold code/markup ranges -----------------------------------------------------------------

FENCE = re.compile(r"```[^\n]*\n.*?\n```", re.DOTALL)
INLINE = re.compile(r"`[^`\n]+`")
TABLE_ROW = re.compile(r"^\|.*\|$", re.MULTILINE)
COMMAND = re.compile(r"^\$ .*$", re.MULTILINE)
MARKER = re.compile(r"^(?:[-*+]|\d+\.) ", re.MULTILINE)
BLOCK_KINDS = ("fence", "table", "command")


def markup_ranges(text: str) -> list[list[Any]]:
    """[start, end, kind] of every code or markup span: fence, table, command, inline, marker.

    Written from the generator's own constructs (it knows what it wrote), not from a
    markdown parser, so the labels do not share a parser's mistakes with the system tested.
    """
    found: list[list[Any]] = [[m.start(), m.end(), "fence"] for m in FENCE.finditer(text)]
    inside = [(s, e) for s, e, _ in found]

    def outside(start: int) -> bool:
        return not any(s <= start < e for s, e in inside)

    for pattern, kind in ((TABLE_ROW, "table"), (COMMAND, "command"), (INLINE, "inline"),
                          (MARKER, "marker")):  # fmt: skip
        found += [[m.start(), m.end(), kind] for m in pattern.finditer(text) if outside(m.start())]
    return sorted(found)


def generate(seed: int, count: int, words: str = "base") -> list[dict[str, Any]]:
    rng = random.Random(seed)
    chosen = wording(words)
    return [conversation(i, rng, chosen) for i in range(count)]


def write(conversations: list[dict[str, Any]], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    turns_path, gold_path = out / TURNS_FILE, out / GOLD_FILE
    with turns_path.open("w", encoding="utf-8") as handle:
        for conv in conversations:
            for turn in conv["turns"]:
                handle.write(json.dumps(turn, ensure_ascii=False) + "\n")
    gold = [{k: v for k, v in c.items() if k != "turns"} for c in conversations]
    gold_path.write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return turns_path, gold_path


def load(folder: Path = DATA) -> list[dict[str, Any]]:
    """The conversations with their gold labels and turns, as `generate` made them."""
    gold = json.loads((folder / GOLD_FILE).read_text(encoding="utf-8"))
    by_conv: dict[str, list[dict[str, Any]]] = {}
    with (folder / TURNS_FILE).open(encoding="utf-8") as handle:
        for line in handle:
            turn = json.loads(line)
            by_conv.setdefault(turn["turn_id"].split(":")[0], []).append(turn)
    return [{**conv, "turns": by_conv[conv["conversation_id"]]} for conv in gold]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--conversations", type=int, default=12)
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument(
        "--wording", choices=("base", "varied"), default="base",
        help="the labelled sentences' templates: base, or bench/techvaried's (bench/data/varied)",
    )  # fmt: skip
    args = parser.parse_args()
    conversations = generate(args.seed, args.conversations, args.wording)
    turns_path, gold_path = write(conversations, args.out)
    n_turns = sum(len(c["turns"]) for c in conversations)
    n_updates = sum(len(c["updates"]) for c in conversations)
    n_contra = sum(len(c["contradictions"]) for c in conversations)
    print(
        f"{len(conversations)} conversations, {n_turns} turns, {n_updates} knowledge updates, "
        f"{n_contra} contradiction pairs -> {turns_path}, {gold_path}"
    )


if __name__ == "__main__":
    main()
