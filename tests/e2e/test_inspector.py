"""The provenance inspector (/ui) in headless Chromium (Debian's, driven by playwright) on
embedded runtime data, and on the distributed runtime's (Kafka, Redis, a faust worker):
scopes, facts, evidence, supersession, review, live changes over
SSE, search diagnostics and erasure receipts; screenshots checked. On the distributed
runtime a correction and a subject erasure made in the UI too (the embedded runtime's
actions: test_inspector_actions.py)."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Page, expect, sync_playwright

from provmem import Memory
from provmem.config import Settings
from provmem.services.api.app import create_api
from tests.e2e.test_api import issue
from tests.e2e.test_client import serving
from tests.harness import settings_env

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AT = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def remembered(settings: Settings) -> None:
    """Two users: a corrected fact, one waiting for review, an erased session."""
    with Memory(settings=settings, org="acme", project="app") as memory:
        memory.add(
            ["I live in Paris.", "I have a cat named Tom.", "I think I live in Berlin now."],
            user_id="ann",
            user_name="Ann",
            at=AT,
        )
        paris = next(f for f in memory.facts(user_id="ann") if "Paris" in f.statement)
        memory.correct(paris.fact_id, "Ann lives in Lisbon.", by="Ann", reason="moved")
        memory.add("I play the cello.", user_id="bob", user_name="Bob", session_id="s1", at=AT)
        memory.add("I work at Initech.", user_id="bob", user_name="Bob", at=AT)
        memory.erase(user_id="bob", session_id="s1", reason="asked to forget")


@pytest.fixture
def inspector(tmp_path: Path) -> Iterator[tuple[Page, str]]:
    settings = Settings(data_dir=tmp_path / "d", partitions=2)
    remembered(settings)
    token = issue(settings, "acme")["Authorization"].removeprefix("Bearer ")
    with serving(create_api(settings)) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(f"localStorage.setItem('provmem-token', '{token}')")
        page.goto(f"{url}/ui")
        expect(page.locator("body[data-ready=true]")).to_be_attached(timeout=30_000)
        yield page, url
        browser.close()


def looks_drawn(png: bytes, path: Path) -> None:
    """Not blank: many colours, and a good share of pixels differ from the background."""
    path.write_bytes(png)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((200, 140))
    colours = small.getcolors(maxcolors=200 * 140) or []
    background = max(colours)[1]
    drawn = sum(count for count, colour in colours if colour != background)
    assert len(colours) > 20 and drawn > 0.1 * 200 * 140, (len(colours), drawn)


def test_facts_evidence_supersession_review_and_live_changes(
    inspector: tuple[Page, str], tmp_path: Path
) -> None:
    page, _ = inspector
    assert page.locator("#scope option").all_inner_texts() == ["acme/app/ann", "acme/app/bob"]
    page.select_option("#scope", "acme/app/ann")
    lisbon = page.locator("#facts tbody tr", has_text="Ann lives in Lisbon.")
    expect(lisbon).to_contain_text("active")
    expect(page.locator("#facts tbody tr", has_text="Ann lives in Paris.")).to_contain_text(
        "superseded"
    )
    fact_id = lisbon.get_attribute("data-fact-id") or ""
    expect(lisbon.locator(".id")).to_have_text(fact_id)  # ids are never cut
    lisbon.click()
    detail = page.locator("#detail")
    expect(detail).to_contain_text("Supersession chain (1)")
    expect(detail.locator(".chain")).to_contain_text("Ann lives in Paris.")
    expect(detail.locator("blockquote")).to_contain_text(["Ann lives in Lisbon."])
    review = page.locator("#review .review-item", has_text="Berlin")
    expect(review.locator("blockquote")).to_contain_text("I think I live in Berlin now.")
    looks_drawn(page.screenshot(full_page=True), tmp_path / "inspector-facts.png")
    expect(page.locator("#live")).to_have_text("live")
    review.locator("button.approve").click()
    expect(page.locator("#review")).to_contain_text("nothing to review")
    expect(page.locator("#changes li").first).to_contain_text("UPDATE")
    expect(page.locator("#facts tbody tr", has_text="Berlin")).to_contain_text("active")


def test_search_diagnostics_and_erasure_receipts(
    inspector: tuple[Page, str], tmp_path: Path
) -> None:
    page, _ = inspector
    page.select_option("#scope", "acme/app/ann")
    page.fill("#query", "where does Ann live?")
    page.click("#search-form button")
    results = page.locator("#search")
    expect(results.locator(".bundle").first).to_contain_text("Lisbon")
    expect(results).to_contain_text("path ")
    expect(results).to_contain_text("routes: ")
    page.select_option("#scope", "acme/app/bob")
    receipt = page.locator("#erasures .erasure")
    expect(receipt).to_contain_text("session")
    expect(receipt).to_contain_text("evidence erased 1")
    expect(receipt).to_contain_text("residue 0")
    looks_drawn(page.screenshot(full_page=True), tmp_path / "inspector-erasures.png")


@contextmanager
def kafka_worker(settings: Settings, log: Path) -> Iterator[None]:
    """A faust worker of the distributed runtime, ready (its tables recovered)."""
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "provmem.services.cli", "worker", "--loglevel", "info"],
            env=settings_env(settings),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while "[^Worker]: Ready" not in log.read_text(errors="replace"):
            assert worker.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        yield
    finally:
        worker.terminate()
        worker.wait(60)


@pytest.mark.broker
@pytest.mark.redis
def test_the_inspector_on_kafka_runtime_data(kafka_settings: Settings, tmp_path: Path) -> None:
    with kafka_worker(kafka_settings, tmp_path / "worker.log"):
        with Memory(settings=kafka_settings, org="acme", project="app") as memory:
            memory.add("I live in Paris.", user_id="ann", user_name="Ann", at=AT)
            (paris,) = memory.facts(user_id="ann")
            memory.correct(paris.fact_id, "Ann lives in Lisbon.", by="Ann", reason="moved")
            assert len(memory.facts(user_id="ann", every=True)) == 2
        token = issue(kafka_settings, "acme")["Authorization"].removeprefix("Bearer ")
        with serving(create_api(kafka_settings)) as url, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.add_init_script(f"localStorage.setItem('provmem-token', '{token}')")
            page.goto(f"{url}/ui")
            expect(page.locator("body[data-ready=true]")).to_be_attached(timeout=30_000)
            assert page.locator("#scope option").all_inner_texts() == ["acme/app/ann"]
            lisbon = page.locator("#facts tbody tr", has_text="Ann lives in Lisbon.")
            expect(lisbon).to_contain_text("active")
            lisbon.click()
            expect(page.locator("#detail .chain")).to_contain_text("Ann lives in Paris.")
            looks_drawn(page.screenshot(full_page=True), tmp_path / "inspector-kafka.png")
            corrected_and_erased_in_the_ui(page)
            browser.close()


def corrected_and_erased_in_the_ui(page: Page) -> None:
    """The UI's actions on the distributed runtime: a worker applies the correction and
    runs the erasure, whose receipt the page waits for."""
    form = page.locator("#detail .correct-form")
    form.locator("input[name=statement]").fill("Ann lives in Porto.")
    form.locator("button").click()
    expect(page.locator("#detail strong.statement")).to_have_text(
        "Ann lives in Porto.", timeout=30_000
    )
    expect(page.locator("#detail .chain")).to_contain_text("Ann lives in Lisbon.")
    page.click("#erase-subject")
    page.fill("#erase-typed", "acme/app/ann")
    page.click("#erase-confirm")
    receipt = page.locator("#erase-dialog .receipt")
    expect(receipt).to_contain_text("evidence erased 3", timeout=60_000)
    expect(receipt).to_contain_text("residue 0")
    page.click("#erase-close")
    expect(page.locator("#erasures .erasure", has_text="acme/app/ann")).to_contain_text(
        "evidence erased 3"
    )
