"""The space: all 29,334,498 layouts at once.  Their enumeration and perfect index, classes and
groups, the DuckDB database, the layer figures of every layout (the resumable job), batch
analysis and the original engine's files, statistics of the standard layouts."""
