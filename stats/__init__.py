"""What every call is worth: deals bid by the bots and solved double-dummy on a Dask cluster,
written as a Parquet dataset, and the summaries per call and context that the app ships."""
