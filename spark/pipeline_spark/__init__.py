"""The mobility pipeline on Apache Spark: one `pipeline run --partial` per part of the
devices on the executors, then the parts renumbered and reduced by Spark into the files a single
`pipeline run` writes (see spark/README.md)."""
