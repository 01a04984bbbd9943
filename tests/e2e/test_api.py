"""The HTTP API as a client drives it, on the embedded runtime."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from provmem.config import Settings
from provmem.services.api.app import create_api
from provmem.services.api.auth import ApiKeys, open_key_store

TURN = {
    "scope": "acme/app/u1",
    "speaker": "Ann",
    "turn_id": "t1",
    "captured_at": "2026-05-01T10:00:00+00:00",
    "text": "I work at Globex as a welder.",
}


def issue(settings: Settings, scope: str) -> dict[str, str]:
    """Authorization headers of a new key for ``scope``."""

    async def create() -> str:
        store = open_key_store(settings)
        try:
            return (await ApiKeys(store).create(scope)).token
        finally:
            await store.close()

    return {"Authorization": f"Bearer {asyncio.run(create())}"}


def revoke_all(settings: Settings) -> None:
    async def revoke() -> None:
        store = open_key_store(settings)
        keys = ApiKeys(store)
        for key in await keys.list():
            await keys.revoke(key.key_id)
        await store.close()

    asyncio.run(revoke())


def test_publish_query_and_evidence_over_http(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    auth = issue(settings, "acme/app")
    with TestClient(create_api(settings), headers=auth) as client:
        assert client.get("/v1/health").json() == {"status": "ok"}
        published = client.post("/v1/turns", json={"turns": [TURN, {**TURN, "scope": "bad"}]})
        first, second = published.json()
        assert first["status"] == "accepted"
        assert second["status"] == "rejected" and "scope" in second["error"]
        answer = client.post("/v1/query", json={"scope": "acme/app/u1", "query": "job"}).json()
        quote = answer["bundles"][0]["evidence"][0]
        assert quote["evidence_id"] == first["evidence_id"] and quote["source_turn_id"] == "t1"
        shown = client.get(f"/v1/evidence/{first['evidence_id']}").json()
        assert shown["quote"] == TURN["text"]
        assert client.get("/v1/evidence/ev_missing").status_code == 404
        assert client.get("/v1/facts", params={"scope": "nope"}).status_code == 422


def test_a_fact_with_its_provenance_and_history(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings), headers=issue(settings, "acme")) as client:
        moved = {**TURN, "turn_id": "t2", "text": "I work at Initech now."}
        moved["captured_at"] = "2026-06-01T10:00:00+00:00"
        client.post("/v1/turns", json={"turns": [TURN, moved]})
        facts = client.get("/v1/facts", params={"scope": "acme/app/u1"}).json()
        current = next(f for f in facts if "Initech" in f["statement"])
        detail = client.get(f"/v1/facts/{current['fact_id']}").json()
        assert detail["fact"]["statement"] == current["statement"]
        assert detail["evidence"][0]["quote"] == moved["text"]
        assert [f["version"] for f in detail["history"]] == list(range(1, current["version"] + 1))
        assert client.get("/v1/facts/fact_missing").status_code == 404


def test_erasure_over_http_returns_a_receipt(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings), headers=issue(settings, "acme")) as client:
        (published,) = client.post("/v1/turns", json={"turns": [TURN]}).json()
        body = {"scope": "acme/app/u1", "evidence_ids": [published["evidence_id"]]}
        receipt = client.post("/v1/erasures", json=body)
        assert receipt.status_code == 202
        assert receipt.json()["evidence_erased"] == 1 and receipt.json()["residue_found"] == 0
        again = client.get(f"/v1/erasures/{receipt.json()['request_id']}")
        assert again.json() == receipt.json()
        assert client.get(f"/v1/evidence/{published['evidence_id']}").status_code == 404
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}).json() == []
        both = {**body, "subject": True}
        assert client.post("/v1/erasures", json=both).status_code == 422
        assert client.get("/v1/erasures/er_missing").status_code == 404


def test_a_project_is_erased_subject_by_subject_within_the_key_s_scope(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    other = {**TURN, "scope": "acme/app/u2", "turn_id": "t2"}
    with TestClient(create_api(settings), headers=issue(settings, "acme/app")) as client:
        client.post("/v1/turns", json={"turns": [TURN, other]})
        assert (
            client.post("/v1/erasures", json={"scope": "acme", "subject": True}).status_code == 403
        )
        bad = client.post("/v1/erasures", json={"scope": "acme/a b", "subject": True})
        assert bad.status_code == 422 and "scope.project" in bad.text
        filed = client.post("/v1/erasures", json={"scope": "acme/app", "subject": True})
        assert filed.status_code == 202
        body = filed.json()
        assert (body["subjects"], body["residue_found"], body["queued"]) == (2, 0, [])
        assert all(r["removed_per_store"]["data_keys"] == 1 for r in body["completed"])
        assert client.get("/v1/facts", params={"scope": "acme/app/u2"}).json() == []


def test_keys_are_required_unless_auth_is_explicitly_off_and_none_exists(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings)) as client:
        refused = client.get("/v1/facts", params={"scope": "acme/app/u1"})
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        wrong = {"Authorization": "Bearer pmk_0123456789abcdef_guess"}
        assert client.get("/v1/review", params={"scope": "a/b/c"}, headers=wrong).status_code == 401
        assert client.get("/v1/health").status_code == 200
        assert client.get("/openapi.json").json()["info"]["title"] == "provmem"
    dev = settings.model_copy(update={"api_auth": "off"})
    with TestClient(create_api(dev)) as client:
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}).status_code == 200
    auth = issue(dev, "acme")
    with TestClient(create_api(dev)) as client:  # a key exists now: auth applies again
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}).status_code == 401
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}, headers=auth).is_success
        revoke_all(dev)
        assert client.get(
            "/v1/facts", params={"scope": "acme/app/u1"}, headers=auth
        ).status_code == (401)


def test_readiness_and_metrics(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings), headers=issue(settings, "acme")) as client:
        ready = client.get("/v1/ready").json()
        assert ready == {
            "status": "ready",
            "checks": dict.fromkeys(("log", "views", "api_keys"), "ok"),
        }
        client.post("/v1/turns", json={"turns": [TURN]})
        client.post("/v1/query", json={"scope": "acme/app/u1", "query": "job"})
        text = client.get("/metrics").text
        assert 'provmem_turns_published_total{status="accepted"} 1.0' in text
        assert "provmem_queries_total 1.0" in text
        assert (
            'provmem_http_requests_total{method="POST",route="/v1/turns",status="200"} 1.0' in text
        )
        assert "provmem_pipeline_lag_records{topic=" in text


def test_keys_from_the_cli_open_and_close_the_api(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)

    def provmem(*args: str) -> str:
        command = [sys.executable, "-m", "provmem.services.cli", *args, "--data-dir"]
        done = subprocess.run([*command, str(settings.data_dir)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    created = json.loads(provmem("keys", "create", "--scope", "acme/app", "--json"))
    listed = json.loads(provmem("keys", "list", "--json"))
    assert [k["key_id"] for k in listed] == [created["key_id"]]
    assert created["token"] not in json.dumps(listed) and "sha256" not in json.dumps(listed)
    auth = {"Authorization": f"Bearer {created['token']}"}
    with TestClient(create_api(settings), headers=auth) as client:
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}).status_code == 200
        assert client.get("/v1/facts", params={"scope": "acme/web/u1"}).status_code == 403
        provmem("keys", "revoke", created["key_id"])
        assert client.get("/v1/facts", params={"scope": "acme/app/u1"}).status_code == 401
