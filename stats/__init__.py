"""What every call is worth: deals bid by the bots and solved double-dummy, and their summaries.

The deals run on a Dask cluster and are written as a Parquet dataset; the summaries per call
and context are the files the app ships."""
