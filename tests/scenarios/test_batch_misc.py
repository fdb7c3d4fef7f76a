"""Odd corners of RisingWave's batch e2e files, over a real socket: a column's COLLATE in
CREATE TABLE (create_table.rs:150-167, e2e_test/batch/basic/collation.slt.part)."""

from __future__ import annotations

import pytest

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause

_NOT_C = (
    "\n\nCaused by:\n  Feature is not yet implemented: Collate collation other than `C` or `POSIX` "
    "is not implemented\nNo tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml\n"
)


@pytest.mark.parametrize(
    ("sql", "text"),
    [
        ('create table t3 (a text collate "pOsIx", b int)', _NOT_C),
        # unquoted, the name folds to `c` (ObjectName::real_value)
        ("create table t3 (a text collate C)", _NOT_C),
        (
            'create table t4 (a text collate "POSIX", b int collate "C")',
            "\n\nCaused by:\n  Not supported: INT is not a collatable data type\nHINT: The only "
            "built-in collatable data types are `varchar`, please check your type\n",
        ),
    ],
)
async def test_column_collation_refused(client: Client, sql: str, text: str) -> None:
    assert await cause(client, sql) == ("XX000", text)


async def test_column_collation_c_and_posix(client: Client) -> None:
    await client.run('create table t1 (a text collate "C", b varchar collate "POSIX", c int)')
    await client.run("drop table t1")
