"""Markdown tables and number formats, pure."""


def table(header, rows):
    """A markdown table: the header row, its separator, one row per list of cells."""
    lines = [row_line(header), row_line(["---"] * len(header))]
    lines += [row_line(row) for row in rows]
    return "\n".join(lines)


def row_line(cells):
    return "| " + " | ".join("" if cell is None else str(cell) for cell in cells) + " |"


def ms(value):
    """Milliseconds: one decimal under 1000, none above."""
    if value is None:
        return "n/a"
    return "%.1f" % value if value < 1000 else "%.0f" % value


def times(value):
    """A ratio as "0.41×", or n/a."""
    return "n/a" if value is None else "%.2f×" % value


def number(value, digits=1):
    return "n/a" if value is None else "%.*f" % (digits, value)


def grouped(value):
    """An integer with thousands separators ("253,224"), or n/a."""
    return "n/a" if value is None else "{:,}".format(value)
