"""Operations an order applies to its outputs: stamp, page and Bates numbers,
rotate, crop, fill and flatten forms, metadata, sanitize, outline, optimize,
encrypt.

An operation is a frozen spec, a parser from its JSON object (`fields`), an
engine function, and one entry in `table.OPERATIONS` (which also fixes the
phase it runs in, see `table`). `run.apply_operations` opens the file once,
applies a list of them and writes it once. Pages count from 0 in the engine
and from 1 in the operations' `pages` ranges and bookmarks (as the wire's
minPage/maxPage); positions are points on the displayed page, top-left origin.

Layout: `fields` (reading JSON, errors naming the field), `state` (context,
report), `table`, `run`; one module per kind of operation: `stamp` (with
`sheets` and `placement`), `numbering`, `pages`, `forms`, `outline`,
`sanitize`, `metadata`, `optimize`, `protect` (encrypt, and `unlock` for
password-protected inputs).
"""

from engines.pdf.ops.protect import unlock
from engines.pdf.ops.run import Stage, apply_operations
from engines.pdf.ops.state import NumberRange, Op, OpsContext, OpsReport, SourceMark
from engines.pdf.ops.table import (
    OPERATIONS,
    REDACTION,
    Phase,
    parse_operations,
    plan,
    split,
    stamp_texts,
)

__all__ = [
    "OPERATIONS",
    "REDACTION",
    "NumberRange",
    "Op",
    "OpsContext",
    "OpsReport",
    "Phase",
    "SourceMark",
    "Stage",
    "apply_operations",
    "parse_operations",
    "plan",
    "split",
    "stamp_texts",
    "unlock",
]
