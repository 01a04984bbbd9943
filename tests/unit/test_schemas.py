"""The code's event models and the released JSON Schema files agree; examples validate."""

import jsonschema
import pytest

from provmem.core.events import EVENT_MODELS
from provmem.schemas import current_version, load, model_schema
from provmem.streams.topics import EVENT_TOPICS


@pytest.mark.parametrize("event", sorted(EVENT_MODELS))
def test_model_matches_released_schema(event: str) -> None:
    assert load(event, current_version(event)) == model_schema(event), (
        f"{event} drifted from its released schema: add a version and an upcaster"
    )


@pytest.mark.parametrize("event", sorted(EVENT_MODELS))
def test_example_validates_against_schema_and_model(event: str) -> None:
    version = current_version(event)
    example = load(event, version, "example")
    jsonschema.validate(example, load(event, version))
    EVENT_MODELS[event].model_validate(example)


@pytest.mark.parametrize("event", sorted(EVENT_MODELS))
def test_schema_rejects_unknown_fields(event: str) -> None:
    version = current_version(event)
    example = {**load(event, version, "example"), "surprise": 1}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(example, load(event, version))


def test_every_topic_with_a_value_names_a_versioned_event() -> None:
    for topic in EVENT_TOPICS:
        assert topic.value.__name__ in EVENT_MODELS
        assert current_version(topic.value.__name__) == topic.schema_version
