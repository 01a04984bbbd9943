"""The query-time variant of the embedding model: the same int8 weights, multiplied in int8.

The packaged ONNX stores every weight matrix as int8 with a per-column scale and casts it
to float32 before each MatMul (``Cast -> Mul(scale) -> MatMul``); onnxruntime folds that
at load, so one short query streams ~42 MB of float32 weights through the shared caches.
The query variant replaces each such MatMul by onnxruntime's ``DynamicQuantizeMatMul``
(the activations quantized per call, the int8 weights and scales as stored): about half
the CPU per query (3.6 -> 1.8 ms for 12 tokens here). Its vectors differ a little from
the float path (cosine ~0.98 for the same text). Documents stay embedded by the float
path; recall on LoCoMo is unchanged (docs/benchmarks.md, bench/query). The rewritten file
is derived once per source model and kept in the model cache folder.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import structlog

_log = structlog.get_logger(__name__)

#: Bumped when the rewrite changes, so a cached file of an older rewrite is not reused.
REWRITE_VERSION = 1
MS_DOMAIN = "com.microsoft"


def cache_dir() -> Path:
    """``PROVMEM_MODEL_CACHE``, else ``$XDG_CACHE_HOME/provmem`` (``~/.cache/provmem``)."""
    if folder := os.environ.get("PROVMEM_MODEL_CACHE"):
        return Path(folder)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "provmem"


def query_model_path(source: Path, folder: Path | None = None) -> Path:
    """The rewritten model of ``source``, derived on first use."""
    folder = folder or cache_dir()
    digest = _content_digest(source, folder)
    target = folder / f"minilm-query-v{REWRITE_VERSION}-{digest}.onnx"
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        _write(target, source)
    return target


def _content_digest(source: Path, folder: Path) -> str:
    """sha256 of ``source``'s bytes (16 hex digits), remembered in ``folder`` under its
    path, size and modification time: hashing the 23 MB model costs a query ~25 ms."""
    stat = source.stat()
    stamp = f"{source}\x1f{stat.st_size}\x1f{stat.st_mtime_ns}".encode()
    memo = folder / f"digest-{hashlib.sha256(stamp).hexdigest()[:16]}"
    try:
        known = memo.read_text()
        if len(known) == 16:
            return known
    except OSError:
        pass
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=folder, suffix=".digest.tmp")
        with os.fdopen(handle, "w") as file:
            file.write(digest)
        os.replace(name, memo)
    except OSError:
        pass  # no writable cache: hashed again next time
    return digest


def _write(target: Path, source: Path) -> None:
    import onnx

    model = onnx.load(str(source))
    rewritten = quantize_matmuls(model)
    if rewritten == 0:
        raise RuntimeError(f"{source}: no int8 weight MatMul to rewrite (unexpected layout)")
    handle, name = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(handle)
    try:
        onnx.save(model, name)
        os.replace(name, target)  # atomic: concurrent processes agree on one file
    finally:
        Path(name).unlink(missing_ok=True)
    _log.info("query_model.written", path=str(target), matmuls=rewritten)


def quantize_matmuls(model: Any) -> int:
    """Rewrite ``MatMul(x, Mul(Cast(w_int8), scale))`` as
    ``DynamicQuantizeMatMul(x, w_int8, scale)`` in place; return how many."""
    from onnx import helper

    producer = {out: node for node in model.graph.node for out in node.output}
    nodes, rewritten = [], 0
    for node in model.graph.node:
        weights = _int8_weights(node, producer)
        if weights is None:
            nodes.append(node)
            continue
        quantized, scale = weights
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                [node.input[0], quantized, scale],
                list(node.output),
                name=f"{node.name}_int8",
                domain=MS_DOMAIN,
            )
        )
        rewritten += 1
    del model.graph.node[:]
    model.graph.node.extend(nodes)  # the orphaned Cast/Mul nodes are pruned at load
    if not any(opset.domain == MS_DOMAIN for opset in model.opset_import):
        model.opset_import.append(helper.make_opsetid(MS_DOMAIN, 1))
    return rewritten


def _int8_weights(node: Any, producer: dict[str, Any]) -> tuple[str, str] | None:
    """(int8 weights, scale) when ``node`` multiplies by dequantized int8 weights."""
    if node.op_type != "MatMul":
        return None
    scaled = producer.get(node.input[1])
    if scaled is None or scaled.op_type != "Mul":
        return None
    cast = producer.get(scaled.input[0])
    if cast is None or cast.op_type != "Cast":
        return None
    return cast.input[0], scaled.input[1]
