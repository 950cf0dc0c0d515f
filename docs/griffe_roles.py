"""A griffe extension for the API reference: the docstrings cite objects the Sphinx way
(``:func:`solve```, ``:class:`~huarong.engine.layout.Layout```), which Markdown would show as
stray colons.  Each role becomes an optional cross-reference: a link where the object is
documented on the site, plain code where it is not (a private helper, a numba kernel), so a
citation never breaks ``mkdocs build --strict``."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(~?)([\w.]+)`")


def _identifier(obj: griffe.Object, name: str) -> str | None:
    if name.startswith("huarong."):
        return name
    head, _, rest = name.partition(".")
    try:
        resolved = obj.resolve(head)
    except griffe.NameResolutionError:
        return None
    return f"{resolved}.{rest}" if rest else resolved


def _rewrite(obj: griffe.Object, text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        short, name = match.groups()
        shown = name.rsplit(".", 1)[-1] if short else name
        identifier = _identifier(obj, name)
        if identifier is None:
            return f"`{shown}`"
        return f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>'

    return _ROLE.sub(replace, text)


def _walk(obj: griffe.Object) -> None:
    if obj.docstring is not None:
        obj.docstring.value = _rewrite(obj, obj.docstring.value)
    for member in obj.members.values():
        if not isinstance(member, griffe.Alias):  # imported names are documented where defined
            _walk(member)


class SphinxRoles(griffe.Extension):
    """Rewrite every Sphinx role in the docstrings of a loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _walk(pkg)
