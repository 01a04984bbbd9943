"""Build the blind split's JSON files from the authoring sources.

    python -m bench.blind.build          # writes conversations/*.json and gold/*.json

Each module in bench/blind/authoring/ holds META, SCRIPT (a small line format) and GOLD
(turns named by label). Lines of SCRIPT:

    @ SESSION_ID ISO-TIME          a new session (the time needs a zone)
    S: text                        system message
    U label: text / U: text        user message (a label names it for GOLD)
    A: text                        assistant message
    X: tool_name {json args}       assistant tool call without text (skipped by add)
    T: text                        tool result
      continuation                 (two leading spaces) appended as a new line

The build checks the gold against the turns: every label exists and is a user turn, every
gold value occurs in its turn, every answer term in its evidence turn.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROLES = {"S": "system", "U": "user", "A": "assistant", "X": "assistant", "T": "tool"}
LINE = re.compile(r"^([SUAXT])(?: ([A-Za-z0-9_]+))?: ?(.*)$")


def parse(script: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, int]]:
    sessions: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    labels: dict[str, int] = {}
    for raw in script.splitlines():
        if not raw.strip():
            continue
        if raw.startswith("@ "):
            sid, at = raw[2:].split()
            when = datetime.fromisoformat(at)
            if when.tzinfo is None:
                raise ValueError(f"session {sid}: time without zone")
            sessions.append({"session_id": sid, "at": at, "turns": []})
            continue
        if raw.startswith("  ") and turns:
            turns[-1]["content"] += "\n" + raw[2:]
            continue
        match = LINE.match(raw)
        if not match or not sessions:
            raise ValueError(f"bad line: {raw[:60]!r}")
        kind, label, text = match.groups()
        session = sessions[-1]
        index = len(turns)
        turn: dict[str, Any] = {
            "index": index,
            "turn_id": f"{session['session_id']}:{len(session['turns']) + 1}",
            "session_id": session["session_id"],
            "role": ROLES[kind],
            "content": text,
        }
        if kind == "X":
            name, _, args = text.partition(" ")
            turn["content"] = None
            turn["tool_calls"] = [
                {
                    "id": f"call_{index}",
                    "type": "function",
                    "function": {"name": name, "arguments": args or "{}"},
                }
            ]
        if label:
            if label in labels:
                raise ValueError(f"label {label} twice")
            labels[label] = index
        turns.append(turn)
        session["turns"].append(index)
    return sessions, turns, labels


def norm(text: str) -> str:
    return re.sub(r"[\s,$£€]", "", text.lower().replace("’", "'"))


def occurs(value: str, text: str) -> bool:
    return any(norm(alt) in norm(text) for alt in value.split("|"))


def build(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    module = importlib.import_module(f"bench.blind.authoring.{name}")
    meta, gold = module.META, module.GOLD
    sessions, turns, labels = parse(module.SCRIPT)
    problems: list[str] = []

    def turn(label: str, value: str | None = None, what: str = "") -> dict[str, Any]:
        if label not in labels:
            problems.append(f"{what}: unknown label {label}")
            return {"index": -1, "turn_id": "?"}
        t = turns[labels[label]]
        if t["role"] != "user":
            problems.append(f"{what}: {label} is not a user turn")
        if value is not None and not occurs(value, t["content"] or ""):
            problems.append(f"{what}: {value!r} not in turn {label}")
        return {"index": t["index"], "turn_id": t["turn_id"]}

    out: dict[str, Any] = {
        "conversation_id": meta["id"],
        "genre": meta["genre"],
        "updates": [],
        "contradictions": [],
        "facts": [],
        "unanswerable": [],
        "non_conflicts": [],
    }
    for i, u in enumerate(gold.get("updates", [])):
        o = turn(u["orig"], u["orig_value"], f"update {i}")
        n = turn(u["upd"], u["upd_value"], f"update {i}")
        if o["index"] >= n["index"]:
            problems.append(f"update {i}: original after update")
        out["updates"].append(
            {
                "attribute": u["attr"],
                "holder": u["holder"],
                "original_turn": o["index"],
                "original_turn_id": o["turn_id"],
                "original_value": u["orig_value"],
                "updated_turn": n["index"],
                "updated_turn_id": n["turn_id"],
                "updated_value": u["upd_value"],
                "question": u["q"],
                "class": u["cls"],
            }
        )
    for i, c in enumerate(gold.get("contradictions", [])):
        a, b = turn(c["a"], None, f"contradiction {i}"), turn(c["b"], None, f"contradiction {i}")
        out["contradictions"].append(
            {
                "turn_a": a["index"],
                "turn_a_id": a["turn_id"],
                "turn_b": b["index"],
                "turn_b_id": b["turn_id"],
                "holder": c["holder"],
                "matter": c["matter"],
                "question": c["q"],
                "class": c["cls"],
            }
        )
    for i, f in enumerate(gold.get("facts", [])):
        refs = f["t"] if isinstance(f["t"], list) else [f["t"]]
        found = [turn(r, None, f"fact {i}") for r in refs]
        for term in f["terms"]:
            if not any(
                occurs(term, turns[x["index"]]["content"] or "") for x in found if x["index"] >= 0
            ):
                problems.append(f"fact {i}: term {term!r} not in its turn")
        out["facts"].append(
            {
                "turn": found[0]["index"],
                "turns": [x["index"] for x in found],
                "turn_ids": [x["turn_id"] for x in found],
                "holder": f["holder"],
                "holder_terms": f.get("holder_terms", []),
                "other_person": bool(f.get("other")),
                "question": f["q"],
                "answer_terms": f["terms"],
                "class": f["cls"],
            }
        )
    for u in gold.get("unanswerable", []):
        out["unanswerable"].append({"question": u["q"], "class": u["cls"]})
    for i, p in enumerate(gold.get("non_conflicts", [])):
        a, b = turn(p["a"], None, f"non-conflict {i}"), turn(p["b"], None, f"non-conflict {i}")
        out["non_conflicts"].append(
            {"turn_a": a["index"], "turn_b": b["index"], "matter": p["matter"]}
        )
    n_facts, n_un = len(out["facts"]), len(out["unanswerable"])
    if n_facts < 8 or n_un < 3:
        problems.append(f"too few facts ({n_facts}) or unanswerable ({n_un})")
    if problems:
        raise ValueError(f"{name}: " + "; ".join(problems))
    conversation = {
        "conversation_id": meta["id"],
        "genre": meta["genre"],
        "title": meta["title"],
        "user_id": meta["user_id"],
        "user_name": meta["user_name"],
        "sessions": [
            {
                "session_id": s["session_id"],
                "at": s["at"],
                "turns": [
                    {k: v for k, v in turns[i].items() if k != "session_id"} for i in s["turns"]
                ],
            }
            for s in sessions
        ],
    }
    return conversation, out


def main() -> None:
    names = sorted(m.name for m in pkgutil.iter_modules([str(HERE / "authoring")]))
    if len(sys.argv) > 1:
        names = [n for n in names if n in sys.argv[1:]]
    for name in names:
        conversation, gold = build(name)
        cid = conversation["conversation_id"]
        (HERE / "conversations" / f"{cid}.json").write_text(
            json.dumps(conversation, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        (HERE / "gold" / f"{cid}.json").write_text(
            json.dumps(gold, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        turns = [t for s in conversation["sessions"] for t in s["turns"]]
        users = sum(t["role"] == "user" for t in turns)
        print(
            f"{cid} {conversation['genre']}: {len(turns)} turns, {users} user, "
            f"{len(gold['updates'])} upd, {len(gold['contradictions'])} contra, "
            f"{len(gold['facts'])} facts, {len(gold['unanswerable'])} unans"
        )


if __name__ == "__main__":
    main()
