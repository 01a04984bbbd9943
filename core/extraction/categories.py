"""Exclusive categories: names of which a project has one at a time.

General knowledge, not the vocabulary of any conversation: the common relational and
document databases, frontend and backend web frameworks, open-source licenses and hosting
platforms. A project keeps its data in one primary database, has one license, runs its
frontend on one framework and is deployed to one host; two members of one category said
of the same project, with no change cue, contradict each other ("Ledgerly stores
everything in PostgreSQL" ... "The MongoDB collections hold every record of Ledgerly").

A name that is also an English word ("Flask", "React", "Express") counts only capitalized.
Left out on purpose: languages and operating systems (a project mixes them), caches,
queues and search engines (they sit beside the database, "Redis", "Elasticsearch").

    >>> sorted(named_members("Our only database is PostgreSQL, not MySQL.")["database"])
    ['mysql', 'postgresql']
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["CATEGORIES", "exclusive_rival", "named_members"]

CATEGORIES: dict[str, dict[str, tuple[str, ...]]] = {
    "database": {
        "postgresql": ("postgresql", "postgres", "psql"),
        "mysql": ("mysql",),
        "mariadb": ("mariadb",),
        "sqlite": ("sqlite", "sqlite3"),
        "mongodb": ("mongodb", "Mongo"),
        "oracle database": ("oracle database", "oracle db"),
        "sql server": ("sql server", "mssql"),
        "dynamodb": ("dynamodb",),
        "cassandra": ("Cassandra",),
        "couchdb": ("couchdb",),
        "cockroachdb": ("cockroachdb",),
        "firestore": ("firestore",),
    },
    "frontend framework": {
        "react": ("React", "reactjs", "react.js"),
        "vue": ("Vue", "vuejs", "vue.js"),
        "angular": ("Angular", "angularjs"),
        "svelte": ("Svelte", "sveltekit"),
        "ember": ("Ember", "ember.js"),
        "solid": ("solidjs",),
    },
    "backend framework": {
        "django": ("django",),
        "flask": ("Flask",),
        "fastapi": ("fastapi",),
        "express": ("Express", "express.js", "expressjs"),
        "rails": ("Rails", "ruby on rails"),
        "spring": ("Spring Boot",),
        "laravel": ("laravel",),
        "nestjs": ("nestjs",),
        "phoenix": ("Phoenix framework",),
    },
    "license": {
        "mit": ("mit license", "mit licensed", "mit-licensed", "under the mit"),
        "gpl": ("gpl", "gplv2", "gplv3", "gpl-2.0", "gpl-3.0", "gnu general public"),
        "lgpl": ("lgpl",),
        "agpl": ("agpl", "agpl-3.0"),
        "apache": ("apache license", "apache 2.0", "apache-2.0", "apache licensed"),
        "bsd": ("bsd license", "bsd-3-clause", "bsd-2-clause", "bsd licensed"),
        "mpl": ("mpl", "mpl-2.0", "mozilla public license"),
    },
    "host": {
        "heroku": ("heroku",),
        "digitalocean": ("digitalocean", "digital ocean"),
        "aws": ("aws", "amazon web services", "ec2"),
        "google cloud": ("gcp", "google cloud", "app engine"),
        "azure": ("azure",),
        "vercel": ("vercel",),
        "netlify": ("netlify",),
        "fly.io": ("fly.io",),
        "render": ("render.com",),
        "linode": ("linode",),
        "hetzner": ("hetzner",),
    },
}


def _pattern(aliases: tuple[str, ...]) -> re.Pattern[str]:
    """An alias in lower case matches in any case; a capitalized one ("Flask", "React",
    "Express": also English words) only as a name, capitalized."""
    forms = [a if a[:1].isupper() else f"(?i:{re.escape(a)})" for a in aliases]
    forms = [re.escape(f) if f[:1].isupper() else f for f in forms]
    return re.compile(r"(?<![\w@/.-])(?:" + "|".join(forms) + r")(?![\w-])")


_PATTERNS = {
    category: {member: _pattern(aliases) for member, aliases in members.items()}
    for category, members in CATEGORIES.items()
}


@lru_cache(maxsize=65536)
def named_members(statement: str) -> dict[str, frozenset[str]]:
    """The members of each exclusive category the statement names, by category."""
    found: dict[str, frozenset[str]] = {}
    for category, members in _PATTERNS.items():
        named = frozenset(m for m, pattern in members.items() if pattern.search(statement))
        if named:
            found[category] = named
    return found


# Not a statement of what is used: a preference, a comparison, a plan or a maybe.
_NOT_IN_USE = re.compile(
    r"\b(?:prefers?|preferred|rather|over|instead|than|vs|versus|likes?|loves?|hates?"
    r"|consider(?:s|ed|ing)?|thinking|might|maybe|perhaps|should|could|would|recommend\w*"
    r"|suggest\w*|want\w*|plan\w*|try(?:ing)?|tried|evaluat\w*|compar\w*|used to|before"
    r"|previous(?:ly)?|formerly|old)\b",
    re.I,
)


def exclusive_rival(statement: str, other: str) -> str | None:
    """The category in which two statements of use name one different member each
    ("stores everything in PostgreSQL" / "all of its data lives in MongoDB"), or None."""
    if _NOT_IN_USE.search(statement) or _NOT_IN_USE.search(other):
        return None
    ours, theirs = named_members(statement), named_members(other)
    for category, members in ours.items():
        rivals = theirs.get(category)
        if rivals and len(members) == len(rivals) == 1 and members != rivals:
            return category
    return None
