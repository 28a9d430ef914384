"""Rows of a `pipeline export` table, typed by its schema.json: an unquoted empty field is
NULL, "" is the empty string, doubles are exact (shortest round-trip text, Inf, -Inf)."""
from . import rawcsv

CASTS = {"long": int, "integer": int, "double": float, "string": str, "boolean": lambda v: v == "true"}


def columns(schema, table):
    for t in schema["tables"]:
        if t["name"] == table:
            return t["columns"]
    raise KeyError(f"{table} is not in the export's schema.json")


def rows(text, cols):
    """Tuples in the schema's column order."""
    names, records = rawcsv.table(text)
    expected = [c["name"] for c in cols]
    if names != expected:
        raise ValueError(f"export columns {names} differ from schema.json's {expected}")
    casts = [CASTS[c["type"]] for c in cols]
    for record in records:
        yield tuple(None if raw == "" else cast(rawcsv.unquote(raw)) for raw, cast in zip(record, casts))


def spark_schema(cols):
    from pyspark.sql.types import BooleanType, DoubleType, LongType, StringType, StructField, StructType
    types = {"long": LongType(), "integer": LongType(), "double": DoubleType(), "string": StringType(), "boolean": BooleanType()}
    return StructType([StructField(c["name"], types[c["type"]], True) for c in cols])


ARROW_TYPES = {"long": "int64", "integer": "int64", "double": "float64", "string": "string", "boolean": "bool_"}


def arrow_batches(data, cols, part=None):
    """The same rows as `rows`, parsed by Arrow's CSV reader (C++, exact doubles) into record
    batches (with the part's index first when `part` is given). `data`: the file's bytes."""
    import io

    import pyarrow as pa
    import pyarrow.csv as pacsv
    types = {c["name"]: getattr(pa, ARROW_TYPES[c["type"]])() for c in cols}
    table = pacsv.read_csv(io.BytesIO(data), convert_options=pacsv.ConvertOptions(
        column_types=types, null_values=[""], strings_can_be_null=True, quoted_strings_can_be_null=False,
        true_values=["true"], false_values=["false"]))
    expected = [c["name"] for c in cols]
    if table.column_names != expected:
        raise ValueError(f"export columns {table.column_names} differ from schema.json's {expected}")
    if part is not None:
        table = table.add_column(0, "part", pa.array([part] * table.num_rows, pa.int64()))
    return table.to_batches()
