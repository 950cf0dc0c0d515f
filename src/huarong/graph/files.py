"""Any state graph as a file other tools read: GraphML, GEXF, node-link JSON, or an edge list
(Parquet or CSV) with its nodes in a second file beside it.

Nothing here knows a puzzle: a :class:`GraphTable` is a :class:`StateGraph` with columns of
node and edge attributes (numpy arrays, or :class:`Categories` for a few repeated strings)
and a few metadata strings, and the writers stream it in chunks of rows straight from the
arrays.  A graph of a million states and eight million moves never becomes a million Python
objects at once: networkx or igraph objects of that size take gigabytes where these writers
take the arrays and one chunk of text.

Nodes are numbered 0..size-1 as in the graph (the ``id`` of every format); every move is
one undirected edge, listed as :meth:`StateGraph.edge_pairs` lists it (smaller node first).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Literal
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from huarong.graph.state_graph import StateGraph

# XML 1.0 has no place for C0 control characters other than tab and line breaks, even
# escaped: a title or grid holding one would make a file no reader accepts.
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str, entities: dict[str, str] | None = None) -> str:
    """``text`` as XML character data, characters XML cannot hold removed."""
    return escape(_NOT_XML.sub("", text), entities or {})


def _xml_attribute(text: str) -> str:
    """``text`` as a quoted XML attribute value, characters XML cannot hold removed."""
    return quoteattr(_NOT_XML.sub("", text))


FileFormat = Literal["graphml", "gexf", "json", "parquet", "csv"]
FORMATS: Final[dict[str, FileFormat]] = {".graphml": "graphml", ".gexf": "gexf",
                                         ".json": "json", ".parquet": "parquet",
                                         ".csv": "csv"}
"""The format of each file name suffix."""
MEDIA_TYPES: Final[dict[FileFormat, str]] = {
    "graphml": "application/graphml+xml", "gexf": "application/gexf+xml",
    "json": "application/json", "parquet": "application/vnd.apache.parquet",
    "csv": "text/csv"}
"""The media type of each format, for answers over HTTP."""
NODES_SUFFIX: Final = ".nodes"
"""An edge list's nodes go to ``STEM.nodes.parquet`` (or ``.csv``) beside it."""
CHUNK_ROWS: Final = 100_000
"""Rows of text made at once: a few megabytes, whatever the graph's size."""


class UnknownFormatError(ValueError):
    """A file name whose suffix names no format; the message repeats the name."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(f"{os.fspath(path)!r}: the file name must end in one of "
                         f"{', '.join(FORMATS)}")


def format_of(path: str | os.PathLike[str]) -> FileFormat:
    """The format a file name's suffix names; :class:`UnknownFormatError` otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UnknownFormatError(path)
    return FORMATS[suffix]


@dataclass(frozen=True)
class Categories:
    """A column of strings from a short list: ``codes`` (small ints) index ``names``."""

    codes: np.ndarray
    names: tuple[str, ...]

    def __len__(self) -> int:
        return int(self.codes.shape[0])


Column = np.ndarray | Categories
"""An attribute column: bool, int or float numbers, strings (a numpy str or object
array), or :class:`Categories`."""


@dataclass(frozen=True, eq=False)
class GraphTable:
    """A state graph with the attributes of its nodes (aligned with its nodes) and of its
    edges (aligned with :meth:`StateGraph.edge_pairs`), and metadata strings (which step
    rule joins the states, which puzzle...)."""

    graph: StateGraph
    nodes: dict[str, Column] = field(default_factory=dict)
    edges: dict[str, Column] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    pairs: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", self.graph.edge_pairs())
        for kind, columns, rows in (("node", self.nodes, self.graph.size),
                                    ("edge", self.edges, self.graph.edge_count)):
            for name, column in columns.items():
                if len(column) != rows:
                    raise ValueError(f"{kind} attribute {name!r} has {len(column)} values "
                                     f"for {rows} {kind}s")


# ----- columns as text ---------------------------------------------------------------------

_Kind = Literal["boolean", "int", "double", "string"]


def _kind(column: Column) -> _Kind:
    if isinstance(column, Categories):
        return "string"
    if column.dtype == np.bool_:
        return "boolean"
    if np.issubdtype(column.dtype, np.integer):
        return "int"
    if np.issubdtype(column.dtype, np.floating):
        return "double"
    return "string"


def _texts(column: Column, rows: slice, quote: Callable[[str], str]) -> list[str]:
    """The values of ``rows`` as text: numbers as Python writes them, booleans ``true`` /
    ``false``, strings through ``quote`` (escaping for the format)."""
    if isinstance(column, Categories):
        names = np.array([quote(name) for name in column.names], dtype=object)
        chosen: list[str] = names[column.codes[rows]].tolist()
        return chosen
    part = column[rows]
    if part.dtype == np.bool_:
        return np.where(part, "true", "false").tolist()  # type: ignore[no-any-return]
    if _kind(part) == "string":
        return [quote(str(value)) for value in part.tolist()]
    return [str(value) for value in part.tolist()]


def _row_text(template: str, columns: list[Column], rows: slice,
              quote: Callable[[str], str], first: list[list[str]] | None = None) -> str:
    values = [_texts(column, rows, quote) for column in columns]
    return "".join(map(template.format, *(first or []), *values))


def _row_slices(count: int) -> Iterator[slice]:
    for start in range(0, count, CHUNK_ROWS):
        yield slice(start, min(start + CHUNK_ROWS, count))


def _ids(rows: slice) -> list[str]:
    return [str(node) for node in range(rows.start, rows.stop)]


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


# ----- GraphML -----------------------------------------------------------------------------

_GRAPHML_TYPES: Final = {"boolean": "boolean", "int": "long", "double": "double",
                         "string": "string"}


def graphml_chunks(table: GraphTable) -> Iterator[bytes]:
    """The GraphML document, in chunks (UTF-8)."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>\n'
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
            'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n']
    for prefix, target, columns in (("n", "node", table.nodes), ("e", "edge", table.edges)):
        head += [f'<key id="{prefix}{index}" for="{target}" attr.name={_xml_attribute(name)} '
                 f'attr.type="{_GRAPHML_TYPES[_kind(column)]}"/>\n'
                 for index, (name, column) in enumerate(columns.items())]
    head += [f'<key id="g{index}" for="graph" attr.name={_xml_attribute(name)} '
             'attr.type="string"/>\n' for index, name in enumerate(table.metadata)]
    head.append('<graph id="G" edgedefault="undirected">\n')
    head += [f'<data key="g{index}">{_xml_text(value)}</data>\n'
             for index, value in enumerate(table.metadata.values())]
    yield "".join(head).encode()
    node_template = '<node id="n{}">' + "".join(
        f'<data key="n{index}">{{}}</data>' for index in range(len(table.nodes))) + "</node>\n"
    for rows in _row_slices(table.graph.size):
        yield _row_text(node_template, list(table.nodes.values()), rows, _xml_text,
                        [_ids(rows)]).encode()
    edge_template = '<edge source="n{}" target="n{}">' + "".join(
        f'<data key="e{index}">{{}}</data>' for index in range(len(table.edges))) + "</edge>\n"
    for rows in _row_slices(table.graph.edge_count):
        yield _row_text(edge_template, list(table.edges.values()), rows, _xml_text,
                        [table.pairs[rows, 0].tolist(), table.pairs[rows, 1].tolist()]).encode()
    yield b"</graph>\n</graphml>\n"


# ----- GEXF --------------------------------------------------------------------------------

_GEXF_TYPES: Final = {"boolean": "boolean", "int": "long", "double": "double",
                      "string": "string"}


def _attvalues(count: int) -> str:
    if not count:
        return ""
    return "<attvalues>" + "".join(f'<attvalue for="{index}" value="{{}}"/>'
                                   for index in range(count)) + "</attvalues>"


def _attribute_quote(text: str) -> str:
    return _xml_text(text, {'"': "&quot;"})


def gexf_chunks(table: GraphTable) -> Iterator[bytes]:
    """The GEXF 1.2 document, in chunks (UTF-8); the metadata in its description."""
    description = "; ".join(f"{name}: {value}" for name, value in table.metadata.items())
    head = ['<?xml version="1.0" encoding="UTF-8"?>\n'
            '<gexf xmlns="http://www.gexf.net/1.2draft" version="1.2">\n'
            f'<meta><creator>huarong</creator><description>{_xml_text(description)}'
            '</description></meta>\n'
            '<graph defaultedgetype="undirected" mode="static">\n']
    for target, columns in (("node", table.nodes), ("edge", table.edges)):
        head.append(f'<attributes class="{target}">\n')
        head += [f'<attribute id="{index}" title={_xml_attribute(name)} '
                 f'type="{_GEXF_TYPES[_kind(column)]}"/>\n'
                 for index, (name, column) in enumerate(columns.items())]
        head.append("</attributes>\n")
    head.append("<nodes>\n")
    yield "".join(head).encode()
    node_template = ('<node id="{}" label="{}">' + _attvalues(len(table.nodes))
                     + "</node>\n")
    for rows in _row_slices(table.graph.size):
        ids = _ids(rows)
        yield _row_text(node_template, list(table.nodes.values()), rows, _attribute_quote,
                        [ids, ids]).encode()
    yield b"</nodes>\n<edges>\n"
    edge_template = ('<edge id="{}" source="{}" target="{}">' + _attvalues(len(table.edges))
                     + "</edge>\n")
    for rows in _row_slices(table.graph.edge_count):
        yield _row_text(edge_template, list(table.edges.values()), rows, _attribute_quote,
                        [_ids(rows), table.pairs[rows, 0].tolist(),
                         table.pairs[rows, 1].tolist()]).encode()
    yield b"</edges>\n</graph>\n</gexf>\n"


# ----- node-link JSON ----------------------------------------------------------------------

def _json_quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def json_chunks(table: GraphTable) -> Iterator[bytes]:
    """networkx's node-link JSON (``nodes`` and ``links``), in chunks (UTF-8); the metadata
    under ``graph``."""
    yield ('{"directed": false, "multigraph": false, "graph": '
           + json.dumps(table.metadata, ensure_ascii=False) + ', "nodes": [\n').encode()
    node_template = '{{"id": {}' + "".join(f", {_braces(_json_quote(name))}: {{}}"
                                           for name in table.nodes) + "}},\n"
    yield from _json_rows(node_template, table.nodes, table.graph.size,
                          lambda rows: [_ids(rows)])
    yield b'], "links": [\n'
    edge_template = '{{"source": {}, "target": {}' + "".join(
        f", {_braces(_json_quote(name))}: {{}}" for name in table.edges) + "}},\n"
    yield from _json_rows(edge_template, table.edges, table.graph.edge_count,
                          lambda rows: [table.pairs[rows, 0].tolist(),
                                        table.pairs[rows, 1].tolist()])
    yield b"]}\n"


def _json_rows(template: str, columns: dict[str, Column], count: int,
               first: Callable[[slice], list[list[Any]]]) -> Iterator[bytes]:
    for rows in _row_slices(count):
        text = _row_text(template, list(columns.values()), rows, _json_quote, first(rows))
        # Every row ends ",\n"; the last of all may not.
        yield (text[:-2] + "\n" if rows.stop == count else text).encode()


# ----- Parquet and CSV ---------------------------------------------------------------------

Part = Literal["edges", "nodes"]


def _arrow(column: Column) -> Any:
    import pyarrow as pa

    if isinstance(column, Categories):
        return pa.DictionaryArray.from_arrays(pa.array(column.codes.astype(np.int32)),
                                              pa.array(list(column.names)))
    return pa.array(column)


def arrow_table(table: GraphTable, part: Part) -> Any:
    """The edge list (``source``, ``target``, then the edge attributes) or the nodes
    (``id``, then the node attributes) as a pyarrow Table carrying the metadata."""
    import pyarrow as pa

    if part == "edges":
        columns = {"source": pa.array(table.pairs[:, 0]), "target": pa.array(table.pairs[:, 1])}
        columns.update((name, _arrow(column)) for name, column in table.edges.items())
    else:
        columns = {"id": pa.array(np.arange(table.graph.size, dtype=np.uint32))}
        columns.update((name, _arrow(column)) for name, column in table.nodes.items())
    return pa.table(columns).replace_schema_metadata(table.metadata)


def parquet_chunks(table: GraphTable, part: Part = "edges") -> Iterator[bytes]:
    """One part of the edge list as a Parquet file, in chunks: one row group at a time."""
    import pyarrow.parquet as pq

    whole = arrow_table(table, part)
    sink = _Collector()
    with pq.ParquetWriter(sink, whole.schema, compression="zstd") as writer:
        for batch in whole.to_batches(max_chunksize=CHUNK_ROWS * 10):
            writer.write_batch(batch)
            yield sink.take()
    yield sink.take()


class _Collector:
    """A write-only file that hands over what was written since the last :meth:`take`."""

    def __init__(self) -> None:
        self._parts: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> int:
        self._parts.append(bytes(data))
        return len(self._parts[-1])

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


def _write_csv(table: GraphTable, part: Part, stream: IO[bytes]) -> None:
    import pyarrow as pa
    import pyarrow.csv as csv

    arrow = arrow_table(table, part)
    # CSV has no dictionaries: the strings themselves.
    plain = pa.table({name: (column.cast(pa.string()) if pa.types.is_dictionary(column.type)
                             else column) for name, column in zip(arrow.column_names,
                                                                  arrow.columns, strict=True)})
    csv.write_csv(plain, stream)


# ----- files -------------------------------------------------------------------------------

CHUNKS: Final[dict[str, Callable[[GraphTable], Iterator[bytes]]]] = {
    "graphml": graphml_chunks, "gexf": gexf_chunks, "json": json_chunks}
"""The streaming writer of each one-file format."""


def nodes_path(path: str | os.PathLike[str]) -> Path:
    """Where the nodes of the edge list at ``path`` go: ``STEM.nodes.SUFFIX`` beside it."""
    target = Path(path)
    return target.with_name(target.stem + NODES_SUFFIX + target.suffix)


def write_graph_file(path: str | os.PathLike[str], table: GraphTable) -> list[Path]:
    """Write ``table`` to ``path`` in the format its suffix names (and, for an edge list, its
    nodes beside it), each file atomically.  Returns the files written."""
    from huarong.fileio import atomic_writer

    kind = format_of(path)
    target = Path(path)
    if kind in CHUNKS:
        with atomic_writer(target, "wb") as stream:
            for chunk in CHUNKS[kind](table):
                stream.write(chunk)
        return [target]
    written = []
    for part, destination in (("edges", target), ("nodes", nodes_path(target))):
        with atomic_writer(destination, "wb") as stream:
            if kind == "parquet":
                for chunk in parquet_chunks(table, part):  # type: ignore[arg-type]
                    stream.write(chunk)
            else:
                _write_csv(table, part, stream)  # type: ignore[arg-type]
        written.append(destination)
    return written
