"""One frozen settings object, built at start-up and passed down.

Every field can be set by an environment variable ``PROVMEM_<FIELD>`` (e.g.
``PROVMEM_RUNTIME=kafka``) or a ``.env`` file. Nothing reads the environment
anywhere else.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

if TYPE_CHECKING:
    from provmem.core.facts.gate import GateConfig


def default_data_dir() -> Path:
    """The one default data folder of every entry point (``Memory()``, the CLI, ``provmem
    api``, ``mcp``, ``keys``, the inspector): per user (XDG on Linux, Application Support
    on macOS, LOCALAPPDATA on Windows), unless ``PROVMEM_DATA_DIR`` or ``--data-dir``
    says otherwise. ``provmem where`` prints it."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "provmem"
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / "provmem"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "provmem"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="PROVMEM_", env_file=".env", frozen=True, extra="ignore"
    )

    runtime: Literal["embedded", "kafka"] = Field(
        "embedded", description="embedded: local log and stores; kafka: broker, Redis, Qdrant"
    )
    data_dir: Path = Field(
        default_factory=default_data_dir,
        description="Where embedded data and keys live (default: the per-user folder)",
    )
    broker_url: str = Field("127.0.0.1:9092", description="Kafka bootstrap servers")
    topic_prefix: str = Field("provmem", pattern=r"^[A-Za-z0-9._-]+$")
    partitions: int = Field(8, ge=1, le=1024, description="Partitions of the scoped topics")
    consumer_group: str = "provmem"
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_prefix: str = Field("provmem", pattern=r"^[A-Za-z0-9._:-]+$")
    qdrant_url: str | None = Field(
        None,
        description="Qdrant server; file:<folder>: qdrant-client's local mode (one process "
        "at a time, tests); unset: local index",
    )
    master_key: SecretStr | None = Field(
        None, description="Base64 256-bit master key; unset: generated in data_dir"
    )
    max_text_bytes: int = Field(64 * 1024, ge=1)
    max_future_skew_s: int = Field(300, ge=0)
    embedding_threads: int | None = None
    worker_store: Literal["rocksdb", "memory"] = Field(
        "rocksdb", description="where a worker keeps the gate table: on disk, or in memory"
    )
    worker_name: str | None = Field(
        None,
        pattern=r"^[A-Za-z0-9._-]+$",
        description="names the worker's state folder under data_dir/faust; unset: host name",
    )
    worker_web_port: int | None = Field(
        None, ge=1, le=65535, description="a worker serves GET /health on it (off when unset)"
    )
    producer_max_batch_size: int | None = Field(
        None, description="1 in tests against Tansu (see docs/ARCHITECTURE.md)"
    )
    broker_session_timeout_s: float = 30.0
    broker_request_timeout_s: float = Field(
        40.0, gt=0, description="How long a publish waits for the broker before failing"
    )
    broker_heartbeat_interval_s: float = 3.0
    log_level: str = "WARNING"
    api_auth: Literal["on", "off"] = Field(
        "on", description="off: no API key needed, honoured only while no key exists (dev use)"
    )
    api_heartbeat_s: float = Field(15.0, gt=0, description="SSE heartbeat interval")
    gate_kappa: float = Field(20.0, gt=0, description="vMF concentration of the novelty density")
    gate_threshold: float = Field(0.12, ge=0, le=2, description="Novelty below it: NOOP")
    gate_margin: float = Field(0.13, ge=0, le=2, description="Novelty above threshold+margin: ADD")
    gate_density_factor: float = Field(0.6, gt=0, description="Threshold cap vs typical NN gap")
    parse_clauses: bool = Field(
        True,
        description="The rules extractor reads comma splices with spaCy's parser "
        "(infra/models/clause_parser.py); off: the word rules alone",
    )
    read_values: bool = Field(
        True,
        description="Read value states (holder, attribute, value, time) with spaCy's parser "
        "(core/extraction/values.py), questions included; on the blind split it links "
        "updates (history 0.06 -> 0.20, stale 0.55 -> 0.41, updated above original 0.54 -> "
        "0.63) and keeps recall (single-hop R@10 0.995 both), for fewer answer terms in "
        "the top-5 statements (0.807 -> 0.781): docs/benchmarks.md 'Stop 38 check'",
    )
    llm_base_url: str | None = Field(None, description="OpenAI-compatible endpoint (off if unset)")
    llm_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr | None = None
    api_max_body_bytes: int = Field(
        64 * 1024 * 1024, ge=1024, description="Larger request bodies are refused with 413"
    )
    fault: str | None = Field(
        None,
        description="Tests only: SIGKILL the process at this step, or raise at STEP/raise "
        "(services/memory/faults)",
    )

    def gate_config(self) -> GateConfig:
        from provmem.core.facts.gate import GateConfig  # numpy and the gate: not for every command

        return GateConfig(
            kappa=self.gate_kappa,
            threshold=self.gate_threshold,
            margin=self.gate_margin,
            density_factor=self.gate_density_factor,
        )
