"""A group's graph as files and its bottlenecks under ``/api/groups/{code}``: GraphML, GEXF,
node-link JSON and a Parquet edge list, streamed in chunks as they are made (gzip when the
client takes it), and the cut vertices, bridges, dead ends and basins."""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from huarong.engine.layout import Layout
from huarong.space.explorer import Explorer
from huarong.web.errors import BadQuery, database_answers, path_layout
from huarong.web.schema import GroupCode, error_responses

BOTTLENECK_CACHE_SIZE = 4
GZIP_LEVEL = 6

GraphSuffix = Literal["graphml", "gexf", "json", "parquet"]


def _gzipped(chunks: Iterator[bytes]) -> Iterator[bytes]:
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)  # 31: the gzip wrapper
    for chunk in chunks:
        packed = packer.compress(chunk)
        if packed:
            yield packed
    yield packer.flush()


def _takes_gzip(request: Request) -> bool:
    return any(part.split(";")[0].strip() == "gzip"
               for part in request.headers.get("accept-encoding", "").split(","))


def graph_router(explorer: Explorer, json_limit: Callable[[], int]) -> APIRouter:
    """The routes, finding groups with ``explorer`` (404 for a layout its database lacks);
    ``json_limit()``: the most nodes whose basins the bottlenecks list node by node (the
    explorer's limit for JSON graphs)."""
    router = APIRouter(prefix="/groups", tags=["explore"])

    def located(request: Request, code: str) -> Layout:
        layout = path_layout(code)
        with database_answers(code):
            explorer.catalog.locate(layout)
        return layout

    @functools.lru_cache(BOTTLENECK_CACHE_SIZE)
    def bottlenecks_of(code: int) -> Any:
        from huarong.space.graph_files import group_bottlenecks

        return group_bottlenecks(Layout(code))

    @router.get("/{code}/bottlenecks", summary="Where a group narrows: cut vertices, "
                "bridges, dead ends, basins",
                responses=error_responses(400, 404, 413, 503, e400="Not a legal layout.",
                                          e404="A layout the database lacks, or a database "
                                               "that cannot answer.",
                                          e413="nodes=1 for a group larger than "
                                               "the explorer answers as JSON."))
    def group_bottlenecks(request: Request, code: GroupCode,
                          nodes: Annotated[bool, Query(
                              description="Also the basin of every node, in code order "
                                          "(-1 outside every basin).")] = False
                          ) -> dict[str, Any]:
        """The group's articulation points, bridges (pairs of codes) and dead ends (one
        neighbour), each as ``{"count", "list"}``, and its basins: the parts a cut vertex
        separates from the goals (from the layout, in a group without one), largest first,
        each with its entrance, the bridge into it (null when several steps lead in), its
        size and its depth (how many steps one can stray into it)."""
        from huarong.space.graph_files import bottlenecks_json

        layout = located(request, code)
        with request.app.state.heavy.slot(layout, sized=False):
            graph, found = bottlenecks_of(int(layout))
        if nodes and graph.size > json_limit():
            raise BadQuery(f"the group of {code} holds {graph.size:,} layouts: the basin of "
                           f"every node is answered up to {json_limit():,}", code, 413)
        return bottlenecks_json(layout, graph, found, nodes)

    @router.get("/{code}/graph.{suffix}", summary="A group's graph as a file",
                response_class=StreamingResponse,
                responses={200: {"description": "The file, streamed.", "content": {
                    "application/graphml+xml": {}, "application/gexf+xml": {},
                    "application/json": {}, "application/vnd.apache.parquet": {}}},
                    **error_responses(400, 404, 503, e400="Not a legal layout, or a suffix "
                                                          "other than the four.",
                                      e404="A layout the database lacks, or a database "
                                           "that cannot answer.")})
    def group_file(request: Request, code: GroupCode, suffix: GraphSuffix,
                   part: Annotated[Literal["edges", "nodes"], Query(
                       description="Parquet only: the edge list or its nodes.")] = "edges"
                   ) -> StreamingResponse:
        """Every layout of the group a node (id, code, short code, minimum steps (-1 none),
        goal, distance from this layout, degree, cut vertex, basin, the layer figures the
        database holds), every step one undirected edge (piece, direction); the metadata
        names the step rule.  GraphML, GEXF, networkx's node-link JSON, or a Parquet edge
        list (``part=nodes``: its nodes); gzip-compressed when the client accepts it (not
        Parquet, compressed already)."""
        from huarong.graph.files import CHUNKS, MEDIA_TYPES, parquet_chunks
        from huarong.space.graph_files import group_table

        layout = located(request, code)
        with request.app.state.heavy.slot(layout, sized=False):
            table = group_table(layout, explorer.catalog.path)
        chunks = (parquet_chunks(table, part) if suffix == "parquet"
                  else CHUNKS[suffix](table))
        name = f"{layout.code}{'.nodes' if suffix == 'parquet' and part == 'nodes' else ''}"
        headers = {"Content-Disposition": f'attachment; filename="{name}.{suffix}"',
                   "Vary": "Accept-Encoding"}
        if suffix != "parquet" and _takes_gzip(request):
            chunks = _gzipped(chunks)
            headers["Content-Encoding"] = "gzip"
        return StreamingResponse(chunks, media_type=MEDIA_TYPES[suffix], headers=headers)

    return router
