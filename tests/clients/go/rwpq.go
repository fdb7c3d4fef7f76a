// Go's lib/pq (Debian's golang-github-lib-pq-dev) through database/sql against a running
// rwshim server, driven by tests/clients/test_go.py: `rwpq <libpq-style dsn>`.  Built in
// GOPATH mode from Debian's source package, so no module is downloaded.  Each line printed is
// one JSON array, `["label", value, ...]`, holding what the driver returned; the Python test
// checks the values.  Anything unexpected exits non-zero with the error on stderr.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/lib/pq"
)

func emit(parts ...any) {
	b, err := json.Marshal(parts)
	if err != nil {
		fail(err)
	}
	fmt.Println(string(b))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func must(_ sql.Result, err error) {
	if err != nil {
		fail(err)
	}
}

// pqError is the *pq.Error fields a caller reads: Code, Message, Severity.
func pqError(err error) map[string]any {
	var e *pq.Error
	if !errors.As(err, &e) {
		return map[string]any{"other": fmt.Sprint(err)}
	}
	return map[string]any{
		"code":     string(e.Code),
		"name":     e.Code.Name(),
		"class":    string(e.Code.Class()),
		"message":  e.Message,
		"severity": e.Severity,
		"error":    e.Error(),
	}
}

type item struct {
	ID    int64    `json:"id"`
	Name  string   `json:"name"`
	Price float64  `json:"price"`
	Seen  string   `json:"seen"`
	Tags  []string `json:"tags"`
	Ok    bool     `json:"ok"`
}

func readItems(rows *sql.Rows, err error) []item {
	if err != nil {
		fail(err)
	}
	defer rows.Close()
	out := []item{}
	for rows.Next() {
		var it item
		var tags pq.StringArray
		var seen time.Time
		if err := rows.Scan(&it.ID, &it.Name, &it.Price, &seen, &tags, &it.Ok); err != nil {
			fail(err)
		}
		it.Seen = seen.Format("2006-01-02 15:04:05 MST")
		it.Tags = tags
		out = append(out, it)
	}
	if err := rows.Err(); err != nil {
		fail(err)
	}
	return out
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: rwpq <dsn>")
		os.Exit(2)
	}
	db, err := sql.Open("postgres", os.Args[1])
	if err != nil {
		fail(err)
	}
	defer db.Close()
	// One connection, so the session settings below hold for every statement.
	db.SetMaxOpenConns(1)
	ctx := context.Background()

	var version string
	if err := db.QueryRow("SELECT version()").Scan(&version); err != nil {
		fail(err)
	}
	emit("version", version)
	must(db.Exec("CREATE TABLE items (id bigint PRIMARY KEY, name varchar," +
		" price double precision, seen timestamp, tags varchar[], ok boolean)"))
	// Exec with arguments: lib/pq's unnamed Parse/Bind/Execute.
	res, err := db.Exec("INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6)",
		1, "apple", 1.25, "2024-06-01 08:00:00", pq.Array([]string{"red", "fruit"}), true)
	if err != nil {
		fail(err)
	}
	n, _ := res.RowsAffected()
	emit("exec", n)
	// A prepared statement: one named Parse, one Bind/Execute per call.
	st, err := db.Prepare("INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6)")
	if err != nil {
		fail(err)
	}
	for i := int64(2); i <= 4; i++ {
		must(st.Exec(i, fmt.Sprintf("item %d", i), float64(i)/4,
			fmt.Sprintf("2024-06-0%d 08:00:00", i), pq.Array([]string{"x"}), i%2 == 0))
	}
	st.Close()
	must(db.Exec("FLUSH"))
	emit("query", readItems(db.Query(
		"SELECT id, name, price, seen, tags, ok FROM items WHERE id >= $1 ORDER BY id", 3)))
	q, err := db.Prepare("SELECT id, name, price, seen, tags, ok FROM items WHERE id = $1")
	if err != nil {
		fail(err)
	}
	emit("prepared", readItems(q.Query(1)), readItems(q.Query(9)))
	q.Close()
	var count int
	var total float64
	if err := db.QueryRowContext(ctx, "SELECT count(*), sum(price) FROM items").Scan(
		&count, &total); err != nil {
		fail(err)
	}
	emit("aggregate", count, total)

	// Errors: *pq.Error with RisingWave's SQLSTATE and whole message.
	_, err = db.Exec("SELECT * FROM missing")
	emit("catalog error, simple", pqError(err))
	_, err = db.Query("SELECT * FROM missing WHERE id = $1", 1)
	emit("catalog error, extended", pqError(err))
	must(db.Exec("SET streaming_max_parallelism = 4"))
	must(db.Exec("CREATE MATERIALIZED VIEW items_mv AS SELECT * FROM items"))
	_, err = db.Exec("ALTER MATERIALIZED VIEW items_mv SET BACKFILL_PARALLELISM = 8")
	emit("error 4", pqError(err))

	// db.Begin sends BEGIN and requires the server to report a transaction (status T);
	// RisingWave starts no read-write transaction (handler/transaction.rs:54-62), so lib/pq
	// refuses.  A read-only transaction is a real one.
	_, err = db.Begin()
	emit("begin", fmt.Sprint(err))
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		fail(err)
	}
	if err := tx.QueryRow("SELECT count(*) FROM items").Scan(&count); err != nil {
		fail(err)
	}
	emit("read-only transaction", count, fmt.Sprint(tx.Commit()))
}
