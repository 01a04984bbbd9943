"""The HTTP API as a client drives it, on the embedded runtime."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from provmem.infra.settings import Settings
from provmem.services.api import create_api

TURN = {
    "scope": "acme/app/u1",
    "speaker": "Ann",
    "turn_id": "t1",
    "captured_at": "2026-05-01T10:00:00+00:00",
    "text": "I work at Globex as a welder.",
}


def test_publish_query_and_evidence_over_http(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings)) as client:
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


def test_erasure_over_http_returns_a_receipt(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    with TestClient(create_api(settings)) as client:
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
