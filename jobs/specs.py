"""Typed order specs stored as JSON and read back as the same frozen dataclasses.

A kind's serializer turns the request into a spec (wire names end there); the
order stores the spec as JSON beside the request it echoes, and the worker reads
the spec back with `from_json`, never the request. Fields are the dataclasses'
own names; tuples become lists; nested dataclasses become objects.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def to_json(value: Any) -> Any:
    """A spec (dataclasses, tuples, sets, mappings, plain values) as JSON-ready
    values; a value with a `to_spec_json()` method writes itself."""
    if hasattr(value, "to_spec_json"):
        return value.to_spec_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field.name: to_json(getattr(value, field.name))
            for field in dataclasses.fields(value)
        }
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_json(item) for item in value)
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    return value


def from_json(cls: type[T], data: Any) -> T:
    """The `cls` dataclass that `to_json` wrote as `data`."""
    return typing.cast(T, _read(cls, data))


def _option_for(options: list[Any], data: Any) -> Any:
    """Which member of a union the JSON value `data` was written from."""
    for option in options:
        origin = typing.get_origin(option) or option
        if isinstance(data, bool):
            if option is bool:
                return option
        elif isinstance(data, list):
            if origin in (tuple, list, set, frozenset):
                return option
        elif isinstance(data, dict):
            if origin in (dict, Mapping) or dataclasses.is_dataclass(option):
                return option
        elif isinstance(data, (int, float)):
            if option in (int, float):
                return option
        elif option is str:
            return option
    raise TypeError(f"no member of {options} reads {data!r}")


def _read(hint: Any, data: Any) -> Any:
    if data is None:
        return None
    if isinstance(hint, type) and hasattr(hint, "from_spec_json"):
        return hint.from_spec_json(data)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        chosen = options[0] if len(options) == 1 else _option_for(options, data)
        return _read(chosen, data)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], item) for item in data)
        return tuple(_read(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in (set, frozenset):
        (item_hint,) = typing.get_args(hint)
        return origin(_read(item_hint, item) for item in data)
    if origin in (dict, Mapping):
        _, value_hint = typing.get_args(hint)
        return {key: _read(value_hint, item) for key, item in data.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        make: Any = hint
        return make(
            **{
                field.name: _read(hints[field.name], data[field.name])
                for field in dataclasses.fields(hint)
                if field.name in data
            }
        )
    if hint is float and isinstance(data, int):
        return float(data)
    return data


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """`cls`'s field types, resolved once a process: resolving the string
    annotations again for every dataclass read was a twentieth of a small
    redaction order's worker time."""
    return typing.get_type_hints(cls)
