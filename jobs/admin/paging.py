"""Admin lists that stay fast on large tables: counts are estimated past a size.

Counting a million rows exactly takes PostgreSQL a full index scan (~0.1 s), and
the admin counts on every list page; a filtered count costs what its filter
scans, however few rows match. Past `EXACT_UP_TO` estimated rows this paginator
takes the planner's estimate (from pg_class statistics, as EXPLAIN reports it)
and the page shows "about N"; small results are counted exactly.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.core.paginator import Paginator
from django.db import connections

EXACT_UP_TO = 1_000


def estimated_rows(queryset: Any) -> int | None:
    """The planner's row estimate for `queryset` (PostgreSQL), else None; 0 for
    a queryset Django knows matches nothing (`.none()`, `pk__in=[]`), which has
    no SQL to explain."""
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return None
    try:
        sql, params = queryset.query.sql_with_params()
    except EmptyResultSet:
        return 0
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        (plan,) = cursor.fetchone()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return int(plan[0]["Plan"]["Plan Rows"])


class EstimatedCountPaginator(Paginator):
    estimated = False

    @cached_property
    def count(self) -> int:
        queryset: Any = self.object_list
        estimate = estimated_rows(queryset)
        if estimate is None or estimate < EXACT_UP_TO:
            return int(queryset.count())
        self.estimated = True
        return estimate
