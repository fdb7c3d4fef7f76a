"""SESSION window frames (rwshim/sql/session_frames.py turns ``first_value`` / ``last_value``
over one into a call of these over the whole partition).

``first_value(vals, orders, nexts, cur)`` / ``last_value(...)`` (four arguments: PostgreSQL's
window functions take one, and the column keeps the function's name): the partition's
values, order values and ``order + gap`` (each in the partition's order); a row at or past
the previous one's ``order + gap`` starts a session
(src/expr/impl/src/window_function/buffer.rs:560-575); the value of the first or last row of
the session holding the first row whose order value is ``cur``.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

_BODY = """
DECLARE
  n int := coalesce(array_length(orders, 1), 0);
  s int := 1;
  e int;
BEGIN
  FOR i IN 1..n LOOP
    IF i > 1 AND orders[i] >= nexts[i - 1] THEN s := i; END IF;
    IF orders[i] IS NOT DISTINCT FROM cur THEN
      IF NOT %s THEN RETURN vals[s]; END IF;
      e := i;
      WHILE e < n AND NOT coalesce(orders[e + 1] >= nexts[e], false) LOOP e := e + 1; END LOOP;
      RETURN vals[e];
    END IF;
  END LOOP;
  RETURN NULL;
END"""

register(
    "".join(
        f"CREATE OR REPLACE FUNCTION {F}.{name}(vals anycompatiblearray, orders anyarray,"
        " nexts anyarray, cur anyelement) RETURNS anycompatible LANGUAGE plpgsql IMMUTABLE"
        f" SET search_path = {F}, pg_catalog AS $${_BODY % last}$$;\n"
        for name, last in (("first_value", "false"), ("last_value", "true"))
    )
    # whether the session of ``cur`` is followed by another (EMIT ON WINDOW CLOSE emits it)
    + f"CREATE OR REPLACE FUNCTION {F}.session_closed(orders anyarray, nexts anyarray,"
    " cur anyelement) RETURNS boolean LANGUAGE plpgsql IMMUTABLE"
    f" SET search_path = {F}, pg_catalog AS $$"
    + _BODY.replace("vals[s]", "false").replace("vals[e]", "e < n") % "true"
    + "$$;\n"
)
