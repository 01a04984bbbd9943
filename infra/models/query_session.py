"""One query's sentence vector from onnxruntime and ``tokenizers``, without fastembed.

Importing fastembed costs a CLI query ~1.5 s (huggingface_hub, requests, image models).
A query needs only what fastembed's ``TextEmbedding`` does for this model: the tokenizer
of ``tokenizer.json`` truncated to ``model_max_length`` (fastembed's ``load_tokenizer``),
``token_type_ids`` of zeros, the model's first output mean pooled over the attention mask
in float64, L2 normalized, cast back to float32. tests/integration/test_query_session.py
checks the vectors against fastembed's on varied strings.

Building the session optimizes the graph (~0.18 s of a CLI query's CPU). With a cache
folder the optimized graph is saved once (``ORT_ENABLE_EXTENDED``: no hardware-specific
rewrites) with its weights in a separate file that onnxruntime maps instead of parsing;
later sessions load it (~0.03 s) and give bit-identical vectors (tests/integration/
test_query_session.py). The saved files are named by the source file's path, size and
modification time and by the onnxruntime version, so a changed model or runtime makes new
ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["QuerySession"]


class QuerySession:
    """A single-threaded onnxruntime session of one embedding model, for a query's texts."""

    def __init__(
        self, onnx_path: Path, tokenizer_folder: Path, cache_folder: Path | None = None
    ) -> None:
        """``cache_folder``: where the optimized graph is kept (None: optimized each time)."""
        import onnxruntime as ort

        if cache_folder is not None:
            onnx_path = optimized_graph(onnx_path, cache_folder)
        self._session = ort.InferenceSession(
            str(onnx_path), providers=["CPUExecutionProvider"], sess_options=_options()
        )
        self._inputs = {node.name for node in self._session.get_inputs()}
        self._tokenizer = _tokenizer(tokenizer_folder)

    def embed(self, text: str) -> npt.NDArray[np.float32]:
        (vector,) = self.embed_many([text])
        return np.asarray(vector, dtype=np.float32)

    def embed_many(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """A few short texts in one run, padded to the longest (the padding is masked out of
        the attention and the pooling): one pass over the weights for all of them."""
        encodings = [self._tokenizer.encode(text) for text in texts]
        width = max(len(e.ids) for e in encodings)
        ids = np.array([e.ids + [0] * (width - len(e.ids)) for e in encodings], dtype=np.int64)
        mask = np.array(
            [e.attention_mask + [0] * (width - len(e.ids)) for e in encodings], dtype=np.int64
        )
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        (output, *_) = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
        return _pooled(output, mask).astype(np.float32)


def _options(level: str = "ORT_ENABLE_ALL") -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = getattr(ort.GraphOptimizationLevel, level)
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return options


def optimized_graph(source: Path, folder: Path) -> Path:
    """``source``'s graph optimized and saved in ``folder`` (weights apart), derived on
    first use; ``source`` itself when the folder cannot be written."""
    import onnxruntime as ort

    stat = source.stat()
    stamp = f"{source.resolve()}\x1f{stat.st_size}\x1f{stat.st_mtime_ns}\x1f{ort.__version__}"
    name = f"{source.stem}-session-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}"
    target = folder / f"{name}.onnx"
    if target.exists():
        return target
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _save_optimized(source, folder, name)
    except OSError:
        return source
    return target


def _save_optimized(source: Path, folder: Path, name: str) -> None:
    """Save into a scratch folder, then move the weights and the graph in (the graph
    last: its presence means both are complete; concurrent writers write the same)."""
    import onnxruntime as ort

    scratch = Path(tempfile.mkdtemp(dir=folder, prefix=".session-"))
    try:
        options = _options("ORT_ENABLE_EXTENDED")
        options.optimized_model_filepath = str(scratch / f"{name}.onnx")
        options.add_session_config_entry(
            "session.optimized_model_external_initializers_file_name", f"{name}.weights"
        )
        options.add_session_config_entry(
            "session.optimized_model_external_initializers_min_size_in_bytes", "1024"
        )
        ort.InferenceSession(str(source), providers=["CPUExecutionProvider"], sess_options=options)
        os.replace(scratch / f"{name}.weights", folder / f"{name}.weights")
        os.replace(scratch / f"{name}.onnx", folder / f"{name}.onnx")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _pooled(tokens: Any, mask: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Mean over the real tokens (float64), then L2 normalized, as fastembed does."""
    summed = np.sum(tokens, axis=1, where=mask[:, :, np.newaxis].astype(bool), dtype=np.float64)
    mean = summed / np.maximum(np.sum(mask, axis=1, keepdims=True), 1e-9)
    norm = np.maximum(np.linalg.norm(mean, ord=2, axis=1, keepdims=True), 1e-12)
    result: npt.NDArray[np.float64] = mean / norm
    return result


def _tokenizer(folder: Path) -> Any:
    """``tokenizer.json`` set up as fastembed's ``load_tokenizer`` does for one text: right
    truncation at the stricter of ``model_max_length`` / ``max_length``, the special tokens
    of ``special_tokens_map.json``, and no padding (fastembed pads a batch to its longest
    text, so a single text not at all; the file's fixed 128 would change int8 vectors)."""
    from tokenizers import AddedToken, Tokenizer

    config = json.loads((folder / "tokenizer_config.json").read_text())
    limits = [
        config[key] for key in ("model_max_length", "max_length") if _is_limit(config.get(key))
    ]
    if not limits:
        raise ValueError(f"{folder / 'tokenizer_config.json'}: no model_max_length")
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    truncation = tokenizer.truncation or {}
    direction = config.get("truncation_side") or truncation.get("direction", "right")
    tokenizer.enable_truncation(max_length=min(limits), direction=direction)
    tokenizer.no_padding()
    specials = folder / "special_tokens_map.json"
    for token in _listed(json.loads(specials.read_text()) if specials.exists() else {}):
        tokenizer.add_special_tokens([token if isinstance(token, str) else AddedToken(**token)])
    return tokenizer


def _is_limit(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


def _listed(tokens: dict[str, Any]) -> list[Any]:
    return [t for value in tokens.values() for t in (value if isinstance(value, list) else [value])]
