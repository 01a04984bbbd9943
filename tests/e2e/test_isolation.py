"""Tenant isolation over HTTP, on both runtimes: a key for tenant A gets 403 for B's scopes
and 404 for B's ids (facts, evidence, erasure receipts), streams and erasures included."""

from __future__ import annotations

import httpx

from provmem.services.api.app import create_api
from provmem.services.api.auth import ApiKeys, open_key_store
from tests.e2e.test_subscriptions import issue_key, served, until_async
from tests.harness import Runtime, said

ACME, GLOBEX = "acme/support/alice", "globex/hr/carol"


async def _tenant_b_ids(runtime: Runtime, http: httpx.AsyncClient) -> dict[str, str]:
    """Publish B's turns and collect the ids a thief would try."""
    turns = [said("g1", "I live in Oslo.", scope=GLOBEX), said("g2", "I own a red car.", 1, GLOBEX)]
    published = (await http.post("/v1/turns", json={"turns": turns})).json()

    async def derived() -> bool:
        if not await runtime.memory.workers_caught_up():
            return False
        return len((await http.get("/v1/facts", params={"scope": GLOBEX})).json()) > 0

    await until_async(derived, "tenant B's facts were not derived")
    facts = (await http.get("/v1/facts", params={"scope": GLOBEX})).json()
    ids = {"fact": facts[0]["fact_id"], "evidence": published[0]["evidence_id"]}
    body = {"scope": GLOBEX, "evidence_ids": [published[1]["evidence_id"]]}
    ids["erasure"] = (await http.post("/v1/erasures", json=body)).json()["request_id"]
    return ids


async def _refusals(http: httpx.AsyncClient, ids: dict[str, str]) -> dict[str, int]:
    """What tenant A's key gets for each of B's things."""
    fact, act = ids["fact"], {"by": "mallory", "reason": "x"}
    calls = {
        "publish": http.post("/v1/turns", json={"turns": [said("m1", "Hi there.", scope=GLOBEX)]}),
        "publish-mixed": http.post(
            "/v1/turns",
            json={
                "turns": [said("m2", "I am here.", scope=ACME), said("m3", "Me too.", scope=GLOBEX)]
            },
        ),
        "query": http.post("/v1/query", json={"scope": GLOBEX, "query": "car"}),
        "facts": http.get("/v1/facts", params={"scope": GLOBEX}),
        "review": http.get("/v1/review", params={"scope": GLOBEX}),
        "fact": http.get(f"/v1/facts/{fact}"),
        "evidence": http.get(f"/v1/evidence/{ids['evidence']}"),
        "correct": http.post(f"/v1/facts/{fact}/correct", json={**act, "statement": "No."}),
        "retract": http.post(f"/v1/facts/{fact}/retract", json=act),
        "approve": http.post(f"/v1/facts/{fact}/approve", json=act),
        "reject": http.post(f"/v1/facts/{fact}/reject", json=act),
        "erase": http.post("/v1/erasures", json={"scope": GLOBEX, "subject": True}),
        "stream-org": http.get("/v1/scopes/globex/changes"),
        "stream-user": http.get(f"/v1/scopes/{GLOBEX}/changes"),
        "neighbour-project": http.get("/v1/facts", params={"scope": "acme/sales/alice"}),
        "lookalike-org": http.get("/v1/facts", params={"scope": "acme2/support/alice"}),
    }
    calls["receipt"] = http.get(f"/v1/erasures/{ids['erasure']}")
    return {name: (await call).status_code for name, call in calls.items()}


EXPECTED = {
    "publish": 403,
    "publish-mixed": 403,
    "query": 403,
    "facts": 403,
    "review": 403,
    "fact": 404,
    "evidence": 404,
    "correct": 404,
    "retract": 404,
    "approve": 404,
    "reject": 404,
    "erase": 403,
    "stream-org": 403,
    "stream-user": 403,
    "neighbour-project": 403,
    "lookalike-org": 403,
    "receipt": 404,
}


async def test_a_key_reaches_nothing_of_another_tenant(runtime: Runtime) -> None:
    settings = runtime.settings
    acme, globex = await issue_key(settings, "acme/support"), await issue_key(settings, "globex")
    async with served(create_api(settings, memory=runtime.memory)) as url:
        # an embedded erasure answers when it is done: seconds under load, past httpx's 5 s
        b = httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {globex}"}, timeout=60
        )
        a = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {acme}"}, timeout=60)
        ids = await _tenant_b_ids(runtime, b)
        got = await _refusals(a, ids)
        assert got == EXPECTED
        # Nothing A tried reached B: B's facts are as they were, A recorded nothing.
        assert len((await b.get("/v1/facts", params={"scope": GLOBEX})).json()) >= 1
        assert (await a.get("/v1/facts", params={"scope": ACME})).json() == []
        assert (await b.get(f"/v1/facts/{ids['fact']}")).status_code == 200
        await a.aclose()
        await b.aclose()


async def test_a_revoked_key_is_refused(runtime: Runtime) -> None:
    settings = runtime.settings
    store = open_key_store(settings)
    keys = ApiKeys(store)
    issued = await keys.create("acme", name="to revoke")
    async with served(create_api(settings, memory=runtime.memory)) as url:
        headers = {"Authorization": f"Bearer {issued.token}"}
        async with httpx.AsyncClient(base_url=url, headers=headers) as http:
            assert (await http.get("/v1/facts", params={"scope": ACME})).status_code == 200
            forged = {"Authorization": f"Bearer {issued.token[:-2]}xx"}
            facts = await http.get("/v1/facts", params={"scope": ACME}, headers=forged)
            assert facts.status_code == 401
            await keys.revoke(issued.key.key_id)
            assert (await http.get("/v1/facts", params={"scope": ACME})).status_code == 401
            assert (await http.get("/v1/scopes/acme/changes")).status_code == 401
            assert (await http.get("/v1/ready")).status_code == 200  # open: no key needed
    await store.close()
