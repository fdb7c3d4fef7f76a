"""sqlalchemy-risingwave (RisingWave's SQLAlchemy dialect) against a server:
``python sqlalchemy_rw.py <host> <port> <driver>`` with driver ``psycopg2`` or ``psycopg``.
Reflection of tables, views and materialized views, Core and ORM; prints JSON lines."""

from __future__ import annotations

import sys

import sqlalchemy as sa
from emit import attempt, dsn_args, emit
from sqlalchemy import orm


class Base(orm.DeclarativeBase):
    pass


class Trade(Base):
    __tablename__ = "orm_trades"
    # RisingWave generates no key values: the ORM gives them (autoincrement=False)
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True, autoincrement=False)
    sym: orm.Mapped[str]
    qty: orm.Mapped[int]


class AutoItem(Base):
    """SQLAlchemy's default for an integer primary key: autoincrement."""

    __tablename__ = "orm_auto"
    id: orm.Mapped[int] = orm.mapped_column(primary_key=True)
    name: orm.Mapped[str]


def main() -> None:
    host, port = dsn_args()
    driver = sys.argv[3]
    scheme = "risingwave" if driver == "psycopg2" else f"risingwave+{driver}"
    engine = sa.create_engine(f"{scheme}://root@{host}:{port}/dev")
    emit("dialect", engine.dialect.name, engine.dialect.driver)
    with engine.connect() as conn:
        for sql in (
            "CREATE TABLE trades (id int PRIMARY KEY, sym varchar, px numeric, at timestamptz)",
            "CREATE INDEX trades_by_sym ON trades (sym)",
            "CREATE MATERIALIZED VIEW trade_count AS SELECT sym, count(*) AS n FROM trades"
            " GROUP BY sym",
            "CREATE VIEW cheap AS SELECT id, px FROM trades WHERE px < 10",
        ):
            conn.exec_driver_sql(sql)
        conn.commit()
    insp = sa.inspect(engine)
    attempt("tables", lambda: insp.get_table_names())
    attempt("views", lambda: insp.get_view_names())
    attempt("materialized views", lambda: insp.get_materialized_view_names())
    attempt("has table", lambda: [insp.has_table("trades"), insp.has_table("nosuch")])

    def columns(name: str) -> list[list[object]]:
        return [[c["name"], repr(c["type"]), c["nullable"]] for c in insp.get_columns(name)]

    attempt("table columns", lambda: columns("trades"))
    attempt("view columns", lambda: columns("cheap"))
    attempt("mv columns", lambda: columns("trade_count"))
    attempt("pk", lambda: insp.get_pk_constraint("trades"))
    attempt("indexes", lambda: insp.get_indexes("trades"))
    attempt("foreign keys", lambda: insp.get_foreign_keys("trades"))
    # Core: a reflected table, insert and select
    meta = sa.MetaData()
    trades = sa.Table("trades", meta, autoload_with=engine)
    with engine.connect() as conn:
        conn.execute(
            trades.insert(),
            [
                {"id": 1, "sym": "AA", "px": 5},
                {"id": 2, "sym": "BB", "px": 12},
                {"id": 3, "sym": "AA", "px": 7},
            ],
        )
        conn.commit()
        conn.exec_driver_sql("FLUSH")
        rows = conn.execute(sa.select(trades.c.id, trades.c.sym).order_by(trades.c.id)).all()
        emit("core select", [list(r) for r in rows])
        mv = sa.Table("trade_count", sa.MetaData(), autoload_with=conn)
        rows = conn.execute(sa.select(mv).order_by(mv.c.sym)).all()
        emit("core mv", [list(r) for r in rows])
    # ORM: create_all, add, query
    Base.metadata.create_all(engine)
    with orm.Session(engine) as session:
        session.add_all([Trade(id=10, sym="CC", qty=3), Trade(id=11, sym="DD", qty=4)])
        session.commit()
        session.execute(sa.text("FLUSH"))
        got = session.scalars(sa.select(Trade).where(Trade.qty > 3)).all()
        emit("orm query", [[t.id, t.sym, t.qty] for t in got])
    # the dialect writes SERIAL as INTEGER, but nothing fills the key in
    with orm.Session(engine) as session:
        session.add(AutoItem(name="x"))

        def commit() -> None:
            session.commit()

        attempt("orm autoincrement", commit)
    engine.dispose()


if __name__ == "__main__":
    main()
