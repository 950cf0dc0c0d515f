"""A group's graph as files and its bottlenecks under ``/api/groups/{code}``: GraphML, GEXF,
node-link JSON and a Parquet edge list, streamed in chunks as they are made (gzip when the
client takes it), and the cut vertices, bridges, dead ends and basins."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse

from huarong.space.explorer import Explorer
from huarong.web import explorer_jobs
from huarong.web.errors import BadQuery, path_layout
from huarong.web.explorer_jobs import located
from huarong.web.heavy import HeavyAnswers, database_stamp, json_bytes
from huarong.web.schema import GroupCode, error_responses

GZIP_LEVEL = 6

GraphSuffix = Literal["graphml", "gexf", "json", "parquet"]


def _gzipped(chunks: Iterable[bytes]) -> Iterator[bytes]:
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)  # 31: the gzip wrapper
    for chunk in chunks:
        packed = packer.compress(chunk)
        if packed:
            yield packed
    yield packer.flush()


def _takes_gzip(request: Request) -> bool:
    return any(part.split(";")[0].strip() == "gzip"
               for part in request.headers.get("accept-encoding", "").split(","))


def _bottlenecks_job(database: Path, placements: Path, code: int, nodes: bool,
                     json_limit: int) -> bytes:
    from huarong.space.graph_files import bottlenecks_json, group_bottlenecks

    layout = located(database, placements, code)
    graph, found = group_bottlenecks(layout)
    if nodes and graph.size > json_limit:
        raise BadQuery(f"the group of {layout.code} holds {graph.size:,} layouts: the basin "
                       f"of every node is answered up to {json_limit:,}", layout.code, 413)
    return json_bytes(bottlenecks_json(layout, graph, found, nodes))


def _file_job(database: Path, placements: Path, code: int, suffix: str,
              part: Literal["edges", "nodes"]) -> Iterator[bytes]:
    """The file, kept gzip-compressed unless Parquet (compressed already): the largest
    group's GEXF takes 1.5 GB as text."""
    from huarong.graph.files import CHUNKS, parquet_chunks
    from huarong.space.graph_files import group_table

    layout = located(database, placements, code)
    table = group_table(layout, database)
    if suffix == "parquet":
        return parquet_chunks(table, part)
    return _gzipped(CHUNKS[suffix](table))


def _gunzipped(chunks: Iterable[bytes]) -> Iterator[bytes]:
    unpacker = zlib.decompressobj(31)
    for chunk in chunks:
        yield unpacker.decompress(chunk)
    yield unpacker.flush()


def graph_router(explorer: Explorer, heavy: HeavyAnswers) -> APIRouter:
    """The routes, finding groups with ``explorer``'s database (404 for a layout it lacks)
    in ``heavy``'s workers; the bottlenecks list basins node by node up to
    :data:`~huarong.web.explorer_jobs.JSON_GRAPH_LIMIT` nodes."""
    router = APIRouter(prefix="/api/groups", tags=["explore"])
    place = (explorer.catalog.path, explorer.cache.directory)

    def key(*parts: Any) -> tuple[Any, ...]:
        return (*parts, database_stamp(explorer.catalog.path))

    @router.get("/{code}/bottlenecks", summary="Where a group narrows: cut vertices, "
                "bridges, dead ends, basins",
                response_model=None,
                responses=error_responses(202, 400, 404, 413, 503, e400="Not a legal layout.",
                                          e404="A layout the database lacks, or a database "
                                               "that cannot answer.",
                                          e413="nodes=1 for a group larger than "
                                               "the explorer answers as JSON."))
    async def group_bottlenecks(request: Request, code: GroupCode,
                          nodes: Annotated[bool, Query(
                              description="Also the basin of every node, in code order "
                                          "(-1 outside every basin).")] = False
                          ) -> Response:
        """The group's articulation points, bridges (pairs of codes) and dead ends (one
        neighbour), each as ``{"count", "list"}``, and its basins: the parts a cut vertex
        separates from the goals (from the layout, in a group without one), largest first,
        each with its entrance, the bridge into it (null when several steps lead in), its
        size and its depth (how many steps one can stray into it)."""
        layout = int(path_layout(code))
        limit = explorer_jobs.JSON_GRAPH_LIMIT
        return await heavy.cached(request, key("bottlenecks", layout, nodes, limit),
                                  _bottlenecks_job, *place, layout, nodes, limit,
                                  media_type="application/json")

    @router.get("/{code}/graph.{suffix}", summary="A group's graph as a file",
                response_class=StreamingResponse,
                responses={200: {"description": "The file, streamed.", "content": {
                    "application/graphml+xml": {}, "application/gexf+xml": {},
                    "application/json": {}, "application/vnd.apache.parquet": {}}},
                    **error_responses(202, 400, 404, 503,
                                      e400="Not a legal layout, or a suffix "
                                                          "other than the four.",
                                      e404="A layout the database lacks, or a database "
                                           "that cannot answer.")})
    async def group_file(request: Request, code: GroupCode, suffix: GraphSuffix,
                   part: Annotated[Literal["edges", "nodes"], Query(
                       description="Parquet only: the edge list or its nodes.")] = "edges"
                   ) -> Response:
        """Every layout of the group a node (id, code, short code, minimum steps (-1 none),
        goal, distance from this layout, degree, cut vertex, basin, the layer figures the
        database holds), every step one undirected edge (piece, direction); the metadata
        names the step rule.  GraphML, GEXF, networkx's node-link JSON, or a Parquet edge
        list (``part=nodes``: its nodes); gzip-compressed when the client accepts it (not
        Parquet, compressed already)."""
        from huarong.graph.files import MEDIA_TYPES

        layout = path_layout(code)
        name = f"{layout.code}{'.nodes' if suffix == 'parquet' and part == 'nodes' else ''}"
        headers = {"Content-Disposition": f'attachment; filename="{name}.{suffix}"',
                   "Vary": "Accept-Encoding"}
        kept_gzipped = suffix != "parquet"
        sent_gzipped = kept_gzipped and _takes_gzip(request)
        if sent_gzipped:
            headers["Content-Encoding"] = "gzip"
        return await heavy.cached(
            request, key("file", int(layout), suffix, part), _file_job, *place, int(layout),
            suffix, part, media_type=MEDIA_TYPES[suffix], headers=headers,
            decode=_gunzipped if kept_gzipped and not sent_gzipped else None)

    return router
