"""The mobility pipeline on Apache Spark: one `pipeline run --partial` per part of the
devices on the executors, then the parts merged in Spark SQL into the files a single
`pipeline run` writes (see spark/README.md)."""
