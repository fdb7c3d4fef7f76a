-- Error 3, with psql: CREATE MATERIALIZED VIEW while the database is paused.
--
--     cannot create streaming job with snapshot backfill when paused
--
-- A paused database (risectl meta pause; in rwshim `ALTER SYSTEM PAUSE`, `ALTER DATABASE d
-- PAUSE` or `rwshim ctl meta pause`) rejects every create that needs a snapshot backfill, the
-- default for materialized views.  The pattern that avoids it: resume before creating.
--
-- Every release rwshim answers as (head, v3.0.3, v2.8.5) answers with the same text, so the
-- example expects it on each; it shows which release it talks to (from version()).
--
-- Run (exits 0 only when the error and the fix both behaved as described):
--     psql -X -f examples/03_snapshot_backfill_when_paused.sql "$RWSHIM_DSN"
-- with RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' (the local default server).

\set ON_ERROR_STOP 1
SELECT version() AS server_version \gset
\echo talking to :server_version
DROP MATERIALIZED VIEW IF EXISTS ex3_top;
DROP TABLE IF EXISTS ex3_scores;
CREATE TABLE ex3_scores (player varchar, score int);
INSERT INTO ex3_scores VALUES ('ada', 10), ('bob', 7);
ALTER SYSTEM PAUSE;

-- 1. The error: the create reaches a paused barrier worker.
\set ON_ERROR_STOP 0
CREATE MATERIALIZED VIEW ex3_top AS SELECT player, score FROM ex3_scores;
\set ON_ERROR_STOP 1
SELECT :'LAST_ERROR_SQLSTATE' = 'XX000' AND :'LAST_ERROR_MESSAGE' = E'Failed to run the query\n\nCaused by these errors (recent errors listed first):\n  1: gRPC request to meta service (call `/ddl_service.DdlService/CreateMaterializedView`) failed: Internal error\n  2: cannot create streaming job with snapshot backfill when paused\n' AS error_reproduced \gset
-- Nothing of the failed create remains.
SELECT count(*) = 0 AS nothing_left FROM rw_catalog.rw_materialized_views WHERE name = 'ex3_top' \gset

-- 2. The pattern: resume, then create.
ALTER SYSTEM RESUME;
CREATE MATERIALIZED VIEW ex3_top AS SELECT player, score FROM ex3_scores;
SELECT status = 'Created' AS fix_worked FROM rw_catalog.rw_materialized_views WHERE name = 'ex3_top' \gset
DROP MATERIALIZED VIEW ex3_top;
DROP TABLE ex3_scores;

\if :error_reproduced
  \if :nothing_left
    \if :fix_worked
      \echo 'example passed: error 3 reproduced, and creating after RESUME worked'
      \quit
    \endif
  \endif
\endif
\echo 'example FAILED'
-- Make psql exit non-zero (ON_ERROR_STOP is on): a statement that cannot run.
SELECT example_failed;
