"""One module per scenario of the table; each has `run(ctx) -> list[Row]`."""
