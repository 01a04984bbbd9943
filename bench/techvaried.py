"""bench/techvaried: a second wording of bench/techgen's knowledge updates and contradictions.

    python -m bench.techgen --wording varied --seed 61 --conversations 16 --out bench/data/varied

Written after the rules, against none of them: other paraphrases of the same attributes
("tail latency", "main is N commits deep", "monthly actives"), other change cues ("crept
up to", "postponed to", "trimmed to", "as of this week"), five attributes the base wording
has not (bundle size, worker memory, hosting cost, database version, tech lead) and other
members of the exclusive categories. The gold labels follow the base wording's rules: each
sentence states its value verbatim, an update's later sentence gives the current value,
a contradiction's two sentences cannot both hold.
"""

from __future__ import annotations

import random

from bench import techgen
from bench.techgen import MATES, ContradictionSpec, Stack, UpdateSpec

__all__ = ["CLASHES", "CONTRADICTIONS", "UPDATES"]

BASE = {spec.key: spec for spec in techgen.UPDATES}


def _bundle(rng: random.Random, _: Stack) -> tuple[str, str]:
    return f"{rng.choice([780, 860, 940, 1100])} kB", f"{rng.choice([310, 360, 420, 480])} kB"


def _memory(rng: random.Random, _: Stack) -> tuple[str, str]:
    return f"{rng.choice([900, 1100, 1300])}MB", f"{rng.choice([380, 450, 520, 610])}MB"


def _cost(rng: random.Random, _: Stack) -> tuple[str, str]:
    old = rng.randrange(30, 60) * 10
    return f"${old}", f"${old - rng.randrange(8, 20) * 10}"


def _postgres(rng: random.Random, _: Stack) -> tuple[str, str]:
    return rng.choice([("13.14", "16.2"), ("14.11", "16.3"), ("12.18", "15.6")])


def _lead(rng: random.Random, _: Stack) -> tuple[str, str]:
    old, new = rng.sample(MATES, 2)
    return old, new


def _reworded(key: str, **wording: tuple[str, ...]) -> UpdateSpec:
    base = BASE[key]
    return UpdateSpec(
        key, base.subject, base.attribute, base.values,
        wording["original"], wording["direct"], wording["passing"], wording["paraphrase"],
        wording.get("question", base.question), base.observation,
    )  # fmt: skip


UPDATES = [
    _reworded(
        "latency",
        original=("Our tail latency is terrible, p95 around {old} on search.",
                  "The 95th percentile response of the API is {old}, and users notice it."),
        direct=("Latency at p95 dropped to {new} overnight.",
                "Tail latency is {new} as of this morning."),
        passing=("Now that p95 responses come back in {new}, I'm tackling the cold start.",
                 "The profiler work paid off (tail latency is {new} today), so on to logging."),
        paraphrase=("The slowest 5% of calls complete in under {new} these days.",
                    "Ninety-five percent of requests are served within {new} now."),
    ),
    _reworded(
        "commits",
        original=("We've made {old} commits since the project started.",
                  "The main branch is {old} commits deep."),
        direct=("Main is {new} commits deep as of today.",
                "The commit total is {new} after today's merges."),
        passing=("After squashing the feature branch, main sits at {new} commits, so the "
                 "changelog needs a pass.",
                 "Between the hotfixes (that's {new} commits on main now) I haven't slept much."),
        paraphrase=("There are {new} commits in the history these days.",
                    "The project history counts {new} commits now."),
    ),
    _reworded(
        "coverage",
        original=("Line coverage is only {old}.", "About {old} of the lines are covered by tests."),
        direct=("Line coverage has crept up to {new}.",
                "Coverage stands at {new} after this week."),
        passing=("Having pushed coverage to {new}, I'd like to try mutation testing.",
                 "With the new fixtures (line coverage at {new}) the parser feels safe."),
        paraphrase=("Tests touch {new} of all lines as of this week.",
                    "The share of covered lines is {new} today."),
    ),
    _reworded(
        "tests",
        original=("Our test suite counts {old} tests.", "There are {old} unit tests in the repo."),
        direct=("The suite counts {new} tests today.", "We're up to {new} unit tests."),
        passing=("I wrote a batch of property tests, making it {new} tests in total, and the "
                 "run is still quick.",
                 "Even with {new} unit tests in the suite the run stays under a minute."),
        paraphrase=("The number of unit tests is {new} these days.",
                    "There are {new} test cases in the repo as of today."),
    ),
    _reworded(
        "version",
        original=("{project} is built on {fw} {old}.", "We depend on {pkg} {old} right now."),
        direct=("{fw} is on {new} as of this week.", "We've upgraded to {fw} {new}."),
        passing=("The move to {fw} {new} broke one test, which I fixed, so let's continue "
                 "with auth.",
                 "Ever since {pkg} {new} landed the startup warnings are gone."),
        paraphrase=("Our {pkg} dependency is {new} after the upgrade.",
                    "Production runs the {new} release of {fw} today."),
    ),
    _reworded(
        "python",
        original=("The code targets Python {old}.", "Production still uses Python {old}."),
        direct=("Production uses Python {new} as of this week.", "We're running Python {new}."),
        passing=("Since switching the runtime to Python {new}, startup is a bit faster.",
                 "The Python {new} upgrade went through without a hitch, so on to caching."),
        paraphrase=("The interpreter in the containers is version {new} today.",
                    "Our CPython runtime is {new} these days."),
    ),
    _reworded(
        "image",
        original=("The container image is a hefty {old}.", "Our Docker image comes in at {old}."),
        direct=("The image shrank to {new}.", "The Docker image comes in at {new} after the diet."),
        passing=("After the slim base trimmed the image to {new}, pulls are quick.",
                 "Deploys got faster (the image is {new} today) and nobody complains."),
        paraphrase=("What we push to the registry is {new} these days.",
                    "The container we deploy weighs {new} as of this week."),
    ),
    _reworded(
        "build",
        original=("Each CI run lasts {old}.",
                  "Our pipeline takes roughly {old} from push to green."),
        direct=("A CI run lasts {new} these days.", "The pipeline is down to {new}."),
        passing=("Because a CI run only lasts {new} today, I merge more often.",
                 "Ever since the cache fix (pipeline at {new}) nobody waits on CI."),
        paraphrase=("From push to green takes {new} lately.",
                    "Checks on a pull request finish in {new} as of this week."),
    ),
    _reworded(
        "team",
        original=("Our team is {old} engineers.", "{old} developers work on {project} so far."),
        direct=("The team is {new} engineers as of Monday.", "We hired, the team counts {new} "
                "developers."),
        passing=("Being a team of {new} engineers means code review is faster.",
                 "With the new hires ({new} developers in total) stand-ups take longer."),
        paraphrase=("{new} people write code for {project} these days.",
                    "Engineering headcount is {new} after the hires."),
    ),
    _reworded(
        "users",
        original=("About {old} people use {project} every month.", "{project} sees roughly {old} "
                  "MAU."),
        direct=("Monthly actives are at {new} today.", "MAU is up to {new}."),
        passing=("Marketing is happy since {project} passed {new} monthly active users last week.",
                 "The servers hold up fine with {new} monthly active users, which surprised me."),
        paraphrase=("Each month about {new} people log in these days.",
                    "The number of monthly visitors has grown to {new}."),
    ),
    _reworded(
        "region",
        original=("Our Postgres runs in {old}.", "The database sits in the {old} region."),
        direct=("The database lives in {new} today.", "We migrated the database to {new}."),
        passing=("Backups got easier once the database landed in {new}.",
                 "After relocating the database to {new} the nightly jobs run faster."),
        paraphrase=("Postgres is served from {new} these days.",
                    "Our data is stored in {new} after the migration."),
    ),
    _reworded(
        "launch",
        original=("The beta is due on {old}.", "We're aiming to open the beta on {old}."),
        direct=("The beta is due on {new} after all.", "We postponed the beta to {new}."),
        passing=("With the beta postponed to {new}, there's time for the onboarding fixes.",
                 "I told the testers about the new beta date ({new}) and they were fine."),
        paraphrase=("Beta users get access on {new} under the new plan.",
                    "The public preview opens on {new} after the delay."),
    ),
    _reworded(
        "issues",
        original=("The issue tracker shows {old} open issues.", "We have {old} unresolved bugs."),
        direct=("Open issues are down to {new}.", "We closed a bunch, {new} open issues remain."),
        passing=("After closing the duplicates ({new} open issues remain) I'll cut a release.",
                 "Triage went well, leaving {new} open issues, most of them docs."),
        paraphrase=("Just {new} bugs are still unresolved.", "The backlog counts {new} open "
                    "tickets as of Friday."),
    ),
    _reworded(
        "errors",
        original=("Roughly {old} of API calls return an error.", "The failure rate of the API is "
                  "{old}."),
        direct=("The failure rate fell to {new}.", "Errors are at {new} after the retry fix."),
        passing=("The alerts are quiet since the failure rate fell to {new}.",
                 "Once errors dropped to {new} I turned the pager back on."),
        paraphrase=("These days only {new} of calls error out.",
                    "Just {new} of requests come back with a 5xx as of this week."),
    ),
    UpdateSpec(
        "bundle", "the {project} frontend bundle", "bundle size", _bundle,
        ("The JavaScript bundle is {old}.", "Our frontend bundle weighs {old} gzipped."),
        ("The bundle is {new} after code splitting.", "Code splitting cut the bundle to {new}."),
        ("Since code splitting got the bundle to {new}, the first paint is quicker.",
         "The lazy routes (bundle at {new} now) make the login page snappy."),
        ("The browser downloads {new} of JavaScript these days.",
         "Our shipped JS comes to {new} as of this release."),
        ("How big is the {project} frontend bundle?", "What is the bundle size of {project}?"),
        "The {project} frontend bundle is {value}.",
    ),
    UpdateSpec(
        "memory", "the {project} worker", "memory use", _memory,
        ("Each worker uses {old} of RAM.", "A worker process eats {old} of memory."),
        ("Worker memory is {new} after the leak fix.", "RAM per worker dropped to {new}."),
        ("Now that a worker needs {new}, we can run four per box.",
         "After the leak fix (workers at {new} each) the OOM kills stopped."),
        ("A worker process gets by with {new} these days.",
         "The resident set of each worker is {new} as of this week."),
        ("How much memory does a {project} worker use?",
         "What is the memory use of a {project} worker?"),
        "A {project} worker uses {value} of memory.",
    ),
    UpdateSpec(
        "cost", "the {project} hosting", "monthly hosting cost", _cost,
        ("Hosting costs us {old} a month.", "The cloud bill is {old} per month."),
        ("Hosting is {new} a month after the cleanup.", "The monthly bill dropped to {new}."),
        ("Since the bill dropped to {new} a month, we can afford a staging box.",
         "With hosting at {new} a month I stopped worrying about the budget."),
        ("We pay {new} a month for servers these days.",
         "Infrastructure runs us {new} monthly as of this quarter."),
        ("How much does {project} hosting cost per month?",
         "What is the monthly hosting bill of {project}?"),
        "{project} hosting costs {value} a month.",
    ),
    UpdateSpec(
        "postgres", "the {project} database", "Postgres version", _postgres,
        ("We run Postgres {old}.", "The database is Postgres {old}."),
        ("We upgraded Postgres to {new}.", "The database is on Postgres {new} after the upgrade."),
        ("The Postgres {new} upgrade went fine, so I'm looking at the slow queries.",
         "Since moving to Postgres {new}, the planner picks the index."),
        ("The database server runs version {new} these days.",
         "Our Postgres cluster is at {new} as of the weekend."),
        ("Which Postgres version does {project} use?",
         "What version of Postgres is the {project} database?"),
        "The {project} database runs Postgres {value}.",
    ),
    UpdateSpec(
        "lead", "the {project} team", "tech lead", _lead,
        ("{old} is our tech lead.", "The tech lead on {project} is {old}."),
        ("{new} is the tech lead as of this sprint.", "The tech lead role went to {new}."),
        ("Since {new} took over as tech lead, stand-ups are shorter.",
         "I asked {new}, our new tech lead, about the branching model."),
        ("{new} leads the engineering side these days.",
         "Technical decisions on {project} go through {new} now."),
        ("Who is the tech lead of {project}?", "Who leads the {project} team technically?"),
        "The {project} tech lead is {value}.",
    ),
]  # fmt: skip


CONTRADICTIONS = [
    ContradictionSpec(
        "routes", "negation",
        ("Not once have I written {fw} routes for {project}, {mate} owns that code.",
         "I have never added a single {fw} endpoint to {project}."),
        ("I just added a `/reports` route in {fw}.",
         "I spent the afternoon writing {fw} routes for the export API."),
        ("Has {user} written {fw} routes in {project}?",),
        ("{user} has never written {fw} routes in {project}.",
         "{user} writes {fw} routes for {project}."),
    ),
    ContradictionSpec(
        "docker", "negation",
        ("{project} has never run in a container.", "I've never touched Docker on {project}."),
        ("Our Dockerfile for {project} needs a smaller base image.",
         "I containerised the {project} worker with Docker yesterday."),
        ("Does {project} run in Docker?",),
        ("{project} has never run in a container.", "{project} runs in Docker."),
    ),
    ContradictionSpec(
        "tests", "negation",
        ("The billing module has never had any tests.", "I've never tested the billing module."),
        ("I added unit tests to the billing module this morning.",
         "The billing module tests I wrote are flaky."),
        ("Does the billing module have tests?",),
        ("The billing module has never had tests.", "The billing module has tests."),
    ),
    ContradictionSpec(
        "ci", "negation",
        ("{project} has never had any continuous integration.",
         "We've never set up CI for {project}."),
        ("The CI pipeline for {project} runs on every push.",
         "Our continuous integration job broke on the lint step."),
        ("Does {project} have CI?",),
        ("{project} has never had CI.", "{project} has a CI pipeline."),
    ),
    ContradictionSpec(
        "orm", "negation",
        ("I've never touched an ORM in {project}.", "No ORM for me, ever, it's plain SQL."),
        ("The reports module uses SQLAlchemy models now.",
         "I mapped the invoices table with the ORM today."),
        ("Does {user} use an ORM?",),
        ("{user} has never used an ORM.", "{user} uses an ORM."),
    ),
    ContradictionSpec(
        "typescript", "negation",
        ("{project} has never had a line of TypeScript.",
         "I have never written TypeScript for {project}."),
        ("The new dashboard in {project} is written in TypeScript.",
         "I'm fixing TypeScript errors in the {project} dashboard."),
        ("Does {project} use TypeScript?",),
        ("{project} has never had TypeScript.", "{project} uses TypeScript."),
    ),
    ContradictionSpec(
        "windows", "negation",
        ("Nobody has ever run {project} on Windows.", "I have never tried {project} on Windows."),
        ("I got {project} running on Windows yesterday.",
         "The Windows build of {project} fails on path separators."),
        ("Has {project} been run on Windows?",),
        ("{project} has never been run on Windows.", "{project} runs on Windows."),
    ),
    ContradictionSpec(
        "deploy", "incompatible",
        ("Production for {project} is on AWS.", "We host {project} on AWS."),
        ("{project} is deployed on Hetzner.", "Our {project} servers are Hetzner boxes."),
        ("Where is {project} hosted?",),
        ("{project} is hosted on AWS.", "{project} is hosted on Hetzner."),
    ),
    ContradictionSpec(
        "database", "incompatible",
        ("{project} keeps its records in MySQL.", "The only database behind {project} is MySQL."),
        ("Every table of {project} lives in CockroachDB.",
         "{project}'s data is all in CockroachDB."),
        ("Which database does {project} use?",),
        ("{project} stores its data in MySQL.", "{project} stores its data in CockroachDB."),
    ),
    ContradictionSpec(
        "solo", "incompatible",
        ("{project} is a one-person project, it's just me.",
         "Nobody else works on {project} but me."),
        ("{mate} pushed half of the {project} commits this week.",
         "{mate} and I pair on the {project} backend every afternoon."),
        ("Does anyone else work on {project}?",),
        ("{user} works on {project} alone.", "{user} works on {project} with {mate}."),
    ),
    ContradictionSpec(
        "frontend", "incompatible",
        ("The {project} UI is an Angular app.", "We wrote the {project} frontend in Angular."),
        ("The {project} UI is built with Svelte.", "Our Svelte components render every page."),
        ("Which framework is the {project} UI built with?",),
        ("The {project} frontend is built with Angular.",
         "The {project} frontend is built with Svelte."),
    ),
    ContradictionSpec(
        "license", "incompatible",
        ("{project} ships under the Apache 2.0 license.", "The {project} code is Apache-2.0."),
        ("{project} is licensed under the AGPL.", "The {project} repository is AGPL-3.0."),
        ("Under which license is {project} released?",),
        ("{project} is released under Apache 2.0.", "{project} is released under the AGPL."),
    ),
]  # fmt: skip

# An update whose statements the contradiction's would contradict too (unlabelled).
CLASHES = {**techgen.CLASHES, "lead": "solo", "postgres": "database", "memory": "docker"}
