// node-postgres (`pg`) and `postgres` (porsager) against a running rwshim server, driven by
// tests/clients/test_node.py: `node rwnode.js <host> <port> pg|postgres`.  Each line printed
// is one JSON array, `["label", value, ...]`, holding what the driver returned; the Python
// test checks the values.  Anything unexpected exits non-zero with the error on stderr.
'use strict';

const pg = require('pg');
const postgres = require('postgres');

const [host, portText, scenario] = process.argv.slice(2);
const port = Number(portText);
const conn = { host, port, user: 'root', database: 'dev' };

function emit(...parts) {
  process.stdout.write(JSON.stringify(parts) + '\n');
}

/** The driver's error object: class, SQLSTATE, message, severity, as the test sees them. */
function errorFields(e) {
  return {
    class: e.constructor.name,
    code: e.code === undefined ? null : e.code,
    message: e.message,
    severity: e.severity === undefined ? null : e.severity,
    severity_local: e.severity_local === undefined ? null : e.severity_local,
  };
}

async function expectError(label, fn) {
  try {
    await fn();
    emit(label, 'no error');
  } catch (e) {
    emit(label, errorFields(e));
  }
}

async function withPg() {
  const client = new pg.Client(conn);
  await client.connect();
  emit('version', (await client.query('SELECT version() AS v')).rows[0].v);
  let r = await client.query(
    'CREATE TABLE items (id int PRIMARY KEY, name varchar, price double precision,' +
      ' qty bigint, tags varchar[], meta jsonb, at timestamp)',
  );
  emit('create', r.command, r.rowCount);
  // Parameters go through the extended protocol (Parse/Bind/Execute, unnamed statement).
  const insert = 'INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6, $7)';
  for (const [id, name] of [[1, 'apple'], [2, 'pear'], [3, 'plum']]) {
    r = await client.query(insert, [id, name, id * 1.25, 10 ** 10 + id, [name, 'fruit'],
      { id, ok: true }, '2024-05-0' + id + ' 12:00:00']);
  }
  emit('insert', r.command, r.rowCount);
  await client.query('FLUSH');
  r = await client.query('SELECT * FROM items ORDER BY id');
  emit('rows', r.rows, r.fields.map((f) => [f.name, f.dataTypeID]));
  // A named prepared statement: parsed once, then bound per call.
  const byId = { name: 'item_by_id', text: 'SELECT name, price FROM items WHERE id = $1' };
  const named = [];
  for (const id of [2, 3, 4]) {
    named.push((await client.query({ ...byId, values: [id] })).rows);
  }
  emit('named prepared', named);
  r = await client.query({ text: 'SELECT id, name FROM items WHERE id < $1 ORDER BY id',
    values: [3], rowMode: 'array' });
  emit('array rows', r.rows);
  await expectError('catalog error, simple', () => client.query('SELECT * FROM missing'));
  await expectError('catalog error, extended', () =>
    client.query('SELECT * FROM missing WHERE id = $1', [1]));
  await client.query('SET streaming_max_parallelism = 4');
  await client.query('CREATE MATERIALIZED VIEW items_mv AS SELECT * FROM items');
  await expectError('error 4', () =>
    client.query('ALTER MATERIALIZED VIEW items_mv SET BACKFILL_PARALLELISM = 8'));
  emit('after errors', (await client.query('SELECT 1 AS one')).rows);
  await client.end();

  // A pool of three connections serving eight concurrent queries.
  const pool = new pg.Pool({ ...conn, max: 3 });
  const results = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].map((i) => pool.query('SELECT $1::int * 2 AS doubled', [i])),
  );
  emit('pool', results.map((x) => x.rows[0].doubled), pool.totalCount);
  const pooled = await pool.connect();
  try {
    emit('pool client', (await pooled.query('SELECT count(*)::int AS n FROM items')).rows);
  } finally {
    pooled.release();
  }
  await pool.end();
}

async function withPostgres() {
  const notices = [];
  const sql = postgres({ ...conn, max: 3, onnotice: (n) => notices.push(n.message) });
  await sql`CREATE TABLE people (id int PRIMARY KEY, name varchar, score numeric, ids int[])`;
  // Tagged-template parameters: always the extended protocol, named statements by default.
  // postgres.js learns array types from pg_type.typcategory = 'A' at connect; RisingWave's
  // typcategory is NULL (pg_type.rs:103), so arrays travel as their text form both ways.
  for (const [id, name] of [[1, 'ada'], [2, 'bob'], [3, 'cy']]) {
    await sql`INSERT INTO people VALUES (${id}, ${name}, ${id * 1.5}, ${`{${id},${id + 1}}`})`;
  }
  await sql`FLUSH`;
  emit('rows', await sql`SELECT id, name, score, ids FROM people ORDER BY id`);
  const rows = [];
  for (const id of [1, 3, 5]) {
    rows.push(await sql`SELECT name FROM people WHERE id = ${id}`);
  }
  emit('prepared', rows);
  // prepare: false binds through the unnamed statement.
  emit('unprepared',
    await sql.unsafe('SELECT $1::varchar AS s, $2::int AS i', ['x', 7], { prepare: false }));
  emit('multi statement', await sql.unsafe('SELECT 1 AS one; SELECT 2 AS two'));
  // A pool of three serving eight concurrent queries.
  const doubled = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8].map(async (i) => (await sql`SELECT ${i}::int * 2 AS d`)[0].d),
  );
  emit('pool', doubled);
  // sql.begin sends BEGIN: RisingWave starts no read-write transaction and says so.
  emit('begin', await sql.begin(async (tx) => tx`SELECT count(*)::int AS n FROM people`));
  await expectError('catalog error', () => sql`SELECT * FROM missing`);
  await expectError('catalog error, simple', () => sql.unsafe('SELECT * FROM missing'));
  // A session setting needs one connection: reserve it from the pool.
  const one = await sql.reserve();
  await one`SET streaming_max_parallelism = 4`;
  await one`CREATE MATERIALIZED VIEW people_mv AS SELECT * FROM people`;
  await expectError('error 4', () => one`ALTER MATERIALIZED VIEW people_mv SET PARALLELISM = 8`);
  emit('after errors', await one`SELECT 1 AS one`);
  one.release();
  await sql.end();
  emit('notices', notices);
}

const scenarios = { pg: withPg, postgres: withPostgres };
if (!(scenario in scenarios)) {
  process.stderr.write('usage: node rwnode.js <host> <port> pg|postgres\n');
  process.exit(2);
}
scenarios[scenario]().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
