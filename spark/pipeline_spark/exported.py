"""Rows of a `pipeline export` table, typed by its schema.json: an unquoted empty field is
NULL, "" is the empty string, doubles are exact (shortest round-trip text, Inf, -Inf)."""


def columns(schema, table):
    for t in schema["tables"]:
        if t["name"] == table:
            return t["columns"]
    raise KeyError(f"{table} is not in the export's schema.json")


ARROW_TYPES = {"long": "int64", "integer": "int64", "double": "float64", "string": "string", "boolean": "bool_"}


def arrow_batches(path, cols):
    """A table's rows, read from its file by Arrow's CSV reader (C++, exact doubles; no copy
    of the file in Python: a part's fixes are hundreds of MB) into record batches typed by
    the schema."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    types = {c["name"]: getattr(pa, ARROW_TYPES[c["type"]])() for c in cols}
    table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types=types, null_values=[""], strings_can_be_null=True, quoted_strings_can_be_null=False,
        true_values=["true"], false_values=["false"]))
    expected = [c["name"] for c in cols]
    if table.column_names != expected:
        raise ValueError(f"export columns {table.column_names} differ from schema.json's {expected}")
    return table.to_batches()
