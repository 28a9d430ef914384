"""CSV records as their raw field texts (quotes kept), so rows written by the binary are
copied byte for byte and only the fields the merge renumbers are replaced."""


def records(text):
    """Yields each record of RFC 4180 `text` as a list of raw fields, quotes included."""
    fields, start, i, n, quoted = [], 0, 0, len(text), False
    while i < n:
        c = text[i]
        if quoted:
            if c == '"':
                if i + 1 < n and text[i + 1] == '"':
                    i += 1
                else:
                    quoted = False
        elif c == '"':
            quoted = True
        elif c == ',':
            fields.append(text[start:i])
            start = i + 1
        elif c == '\n' or c == '\r':
            fields.append(text[start:i])
            if c == '\r' and i + 1 < n and text[i + 1] == '\n':
                i += 1
            yield fields
            fields, start = [], i + 1
        i += 1
    if start < n or fields:
        fields.append(text[start:n])
        yield fields


def unquote(field):
    """The value of a raw field."""
    if len(field) >= 2 and field[0] == '"' and field[-1] == '"':
        return field[1:-1].replace('""', '"')
    return field


def line(fields):
    return ",".join(fields) + "\n"
