// pgjdbc (Debian's libpostgresql-jdbc-java) against a running rwshim server, driven by
// tests/clients/test_jdbc.py: `java RwJdbc <jdbc url> <scenario>`.  Each line printed is one
// JSON array, `["label", value, ...]`, holding what the driver returned; the Python test
// checks the values.  A failure outside what a scenario expects exits non-zero with the
// exception on stderr.

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

public final class RwJdbc {
  private RwJdbc() {}

  // --- output ------------------------------------------------------------------------------

  private static String json(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
      return v.toString();
    }
    if (v instanceof int[]) {
      List<Object> items = new ArrayList<>();
      for (int i : (int[]) v) {
        items.add(i);
      }
      return json(items);
    }
    if (v instanceof List) {
      StringBuilder sb = new StringBuilder("[");
      for (Object item : (List<?>) v) {
        if (sb.length() > 1) {
          sb.append(", ");
        }
        sb.append(json(item));
      }
      return sb.append(']').toString();
    }
    StringBuilder sb = new StringBuilder("\"");
    for (char ch : v.toString().toCharArray()) {
      switch (ch) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (ch < 0x20) {
            sb.append(String.format("\\u%04x", (int) ch));
          } else {
            sb.append(ch);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  private static void emit(Object... parts) {
    System.out.println(json(Arrays.asList(parts)));
  }

  /** Every row of a result set, each as the listed columns' getString values. */
  private static List<Object> rows(ResultSet rs, String... columns) throws SQLException {
    List<Object> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (String c : columns) {
          row.add(rs.getString(c));
        }
        out.add(row);
      }
    }
    return out;
  }

  /** The error as pgjdbc surfaces it: class, SQLSTATE, getMessage, and the server's fields. */
  private static void emitError(String label, SQLException e) {
    ServerErrorMessage m = e instanceof PSQLException p ? p.getServerErrorMessage() : null;
    emit(
        label,
        e.getClass().getName(),
        e.getSQLState(),
        e.getMessage(),
        m == null ? null : m.getSeverity(),
        m == null ? null : m.getMessage());
  }

  private interface Action {
    void run() throws SQLException;
  }

  private static void expectError(String label, Action action) {
    try {
      action.run();
      emit(label, "no error");
    } catch (SQLException e) {
      emitError(label, e);
    }
  }

  private static List<Object> warnings(SQLWarning w) {
    List<Object> out = new ArrayList<>();
    for (; w != null; w = w.getNextWarning()) {
      out.add(w.getMessage());
    }
    return out;
  }

  // --- scenarios ---------------------------------------------------------------------------

  /** Simple and prepared statements, batches, parameter types, autocommit off. */
  private static void statements(Connection c) throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    emit("product", md.getDatabaseProductName(), md.getDatabaseProductVersion());
    try (Statement s = c.createStatement()) {
      emit(
          "create",
          s.executeUpdate(
              "CREATE TABLE orders (id int PRIMARY KEY, item varchar, price double precision,"
                  + " amount numeric, paid boolean, at timestamp, day date, big bigint)"));
      emit("insert", s.executeUpdate("INSERT INTO orders (id, item) VALUES (1, 'one'), (2, 'two')"));
      s.execute("FLUSH");
      ResultSet rs = s.executeQuery("SELECT count(*) AS n, max(item) AS m FROM orders");
      emit("simple select", rows(rs, "n", "m"));
    }

    // A batch of prepared inserts: one Parse, then Bind/Execute per row in one round trip.
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int i = 3; i <= 7; i++) {
        ps.setInt(1, i);
        ps.setString(2, "item " + i);
        ps.setDouble(3, i * 1.5);
        ps.setBigDecimal(4, new BigDecimal("0.25").multiply(BigDecimal.valueOf(i)));
        ps.setBoolean(5, i % 2 == 0);
        ps.setTimestamp(6, Timestamp.valueOf("2024-03-0" + i + " 10:30:00"));
        // setObject(LocalDate) sends a bare YYYY-MM-DD; setDate would append a zone
        // (`2024-04-03 +00`), which RisingWave's date input rejects (datetime.rs:118-127).
        ps.setObject(7, LocalDate.of(2024, 4, i));
        ps.setLong(8, 10_000_000_000L + i);
        ps.addBatch();
      }
      emit("batch", ps.executeBatch());
      ps.setInt(1, 8);
      for (int k = 2; k <= 8; k++) {
        ps.setNull(k, new int[] {0, 0, Types.VARCHAR, Types.DOUBLE, Types.NUMERIC,
          Types.BOOLEAN, Types.TIMESTAMP, Types.DATE, Types.BIGINT}[k]);
      }
      emit("insert nulls", ps.executeUpdate());
    }
    try (Statement s = c.createStatement()) {
      s.execute("FLUSH");
    }

    // The same prepared query six times: pgjdbc switches to a named server-side statement
    // after prepareThreshold (5) executions, so both the unnamed and the named path run.
    try (PreparedStatement q =
        c.prepareStatement(
            "SELECT id, item, price, amount, paid, at, day, big FROM orders"
                + " WHERE id >= ? ORDER BY id")) {
      for (int run = 1; run <= 6; run++) {
        q.setInt(1, 6);
        List<Object> got = new ArrayList<>();
        try (ResultSet rs = q.executeQuery()) {
          while (rs.next()) {
            got.add(
                List.of(
                    rs.getInt(1),
                    String.valueOf(rs.getString(2)),
                    String.valueOf(rs.getObject(3)),
                    String.valueOf(rs.getBigDecimal(4)),
                    String.valueOf(rs.getObject(5)),
                    String.valueOf(rs.getTimestamp(6)),
                    String.valueOf(rs.getObject(7, LocalDate.class)),
                    String.valueOf(rs.getObject(8))));
          }
        }
        emit("prepared select " + run, got);
      }
      ResultSetMetaData rmd = q.getMetaData();
      List<Object> types = new ArrayList<>();
      for (int i = 1; i <= rmd.getColumnCount(); i++) {
        types.add(List.of(rmd.getColumnName(i), rmd.getColumnTypeName(i)));
      }
      emit("column types", types);
    }

    // reWriteBatchedInserts (Kafka Connect's and Flink's setting) folds a batch into one
    // multi-row INSERT; pgjdbc then reports SUCCESS_NO_INFO (-2) per row.
    Connection rewrite = DriverManager.getConnection(c.getMetaData().getURL()
        + "?reWriteBatchedInserts=true", "root", "");
    try (rewrite; PreparedStatement ps =
        rewrite.prepareStatement("INSERT INTO orders (id, item) VALUES (?, ?)")) {
      for (int i = 20; i < 24; i++) {
        ps.setInt(1, i);
        ps.setString(2, "rewritten " + i);
        ps.addBatch();
      }
      emit("rewritten batch", ps.executeBatch());
    }

    // Autocommit off, as Kafka Connect's JDBC sink runs: pgjdbc sends BEGIN before the first
    // statement; RisingWave starts no read-write transaction and says so in a notice.
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO orders (id, item) VALUES (30, 'in a transaction')");
      emit("transaction warnings", warnings(s.getWarnings()));
      c.commit();
    }
    c.setAutoCommit(true);
    try (Statement s = c.createStatement()) {
      s.execute("FLUSH");
      ResultSet rs = s.executeQuery("SELECT count(*) AS n, sum(id) AS total FROM orders");
      emit("final count", rows(rs, "n", "total"));
    }
  }

  /** DatabaseMetaData as DBeaver's and DataGrip's navigators call it. */
  private static void metadata(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE trades (id int PRIMARY KEY, sym varchar NOT NULL, px numeric)");
      s.execute("CREATE INDEX trades_by_sym ON trades (sym)");
      s.execute("CREATE MATERIALIZED VIEW trade_count AS SELECT sym, count(*) AS n FROM trades"
          + " GROUP BY sym");
      s.execute("CREATE VIEW cheap AS SELECT id FROM trades WHERE px < 10");
    }
    DatabaseMetaData md = c.getMetaData();
    emit("catalogs", rows(md.getCatalogs(), "TABLE_CAT"));
    emit("schemas", rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG"));
    emit("schemas like", rows(md.getSchemas("dev", "pub%"), "TABLE_SCHEM"));
    emit("table types", rows(md.getTableTypes(), "TABLE_TYPE"));
    emit("public tables", rows(md.getTables("dev", "public", "%", null),
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS"));
    for (String type : new String[] {"TABLE", "VIEW", "MATERIALIZED VIEW", "INDEX", "SEQUENCE",
      "FOREIGN TABLE", "SYSTEM TABLE", "SYSTEM VIEW"}) {
      emit("tables " + type,
          rows(md.getTables(null, null, "%", new String[] {type}), "TABLE_SCHEM", "TABLE_NAME"));
    }
    emit("columns", rows(md.getColumns(null, "public", "trades", "%"),
        "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE",
        "IS_NULLABLE", "ORDINAL_POSITION", "IS_AUTOINCREMENT"));
    emit("view columns", rows(md.getColumns(null, "public", "trade_count", null),
        "COLUMN_NAME", "TYPE_NAME", "ORDINAL_POSITION"));
  }

  /** Keys, indexes and functions as DBeaver's and DataGrip's navigators read them. */
  private static void keys(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE legs (trip int, seq int, place varchar, PRIMARY KEY (trip, seq))");
      s.execute("CREATE INDEX legs_by_place ON legs (place) INCLUDE (trip)");
      s.execute("CREATE TABLE notes (body varchar)");
    }
    DatabaseMetaData md = c.getMetaData();
    emit("primary keys", rows(md.getPrimaryKeys(null, "public", "legs"),
        "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
    emit("primary keys, none", rows(md.getPrimaryKeys(null, "public", "notes"), "COLUMN_NAME"));
    expectError("index info", () -> rows(md.getIndexInfo(null, "public", "legs", false, false),
        "INDEX_NAME"));
    expectError("functions", () -> rows(md.getFunctions(null, "public", "%"), "FUNCTION_NAME"));
    expectError("imported keys", () -> rows(md.getImportedKeys(null, "public", "legs"),
        "FKCOLUMN_NAME"));
  }

  /** RisingWave's documented errors (README's table) as PSQLException. */
  private static void errors(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      expectError("catalog error, simple", () -> s.executeQuery("SELECT * FROM missing"));
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM missing WHERE id = ?")) {
      ps.setInt(1, 1);
      expectError("catalog error, prepared", ps::executeQuery);
    } catch (SQLException e) {
      emitError("catalog error, prepared", e);
    }
    try (Statement s = c.createStatement()) {
      // Error 1: a throttled background backfill keeps the job Creating.
      s.execute("CREATE TABLE events (id int, v int)");
      s.execute("INSERT INTO events SELECT g, g % 7 FROM generate_series(1, 1000) g");
      s.execute("SET background_ddl = true");
      s.execute("SET backfill_rate_limit = 1");
      s.execute("CREATE MATERIALIZED VIEW events_mv AS SELECT * FROM events");
      ResultSet rs = s.executeQuery(
          "SELECT id, status FROM rw_catalog.rw_materialized_views WHERE name = 'events_mv'");
      emit("creating job", rows(rs, "id", "status"));
      expectError("error 1", () -> s.execute(
          "ALTER MATERIALIZED VIEW events_mv SET PARALLELISM = 2"));
      s.execute("SET background_ddl = false");
      s.execute("SET backfill_rate_limit = DEFAULT");

      // Errors 4 and 4': above the max parallelism fixed when the job was created.
      s.execute("SET streaming_max_parallelism = 4");
      s.execute("CREATE TABLE sales (region varchar, amount int)");
      s.execute("CREATE MATERIALIZED VIEW sales_mv AS SELECT * FROM sales");
      expectError("error 4", () -> s.execute(
          "ALTER MATERIALIZED VIEW sales_mv SET BACKFILL_PARALLELISM = 8"));
      expectError("error 4'", () -> s.execute(
          "ALTER MATERIALIZED VIEW sales_mv SET PARALLELISM = 8"));
    }
    // The same error through the extended protocol: "Failed to execute the statement".
    try (PreparedStatement ps =
        c.prepareStatement("ALTER MATERIALIZED VIEW sales_mv SET BACKFILL_PARALLELISM = 8")) {
      expectError("error 4, prepared", ps::execute);
    }
    // The connection is still usable after each error.
    try (Statement s = c.createStatement()) {
      emit("after errors", rows(s.executeQuery("SELECT 1 AS one"), "one"));
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: RwJdbc <jdbc url> statements|metadata|keys|errors");
      System.exit(2);
    }
    try (Connection c = DriverManager.getConnection(args[0], "root", "")) {
      switch (args[1]) {
        case "statements" -> statements(c);
        case "metadata" -> metadata(c);
        case "keys" -> keys(c);
        case "errors" -> errors(c);
        default -> {
          System.err.println("unknown scenario " + args[1]);
          System.exit(2);
        }
      }
    }
  }
}
