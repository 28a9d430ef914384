/* SQLite's own cost of storing a GPX file's fixes, without the pipeline: 514,167 rows (the
 * 60 MB benchmark GPX's fixes) through one prepared 64-row INSERT in one transaction, as the
 * store's FixWriter does, for a journal mode, a table kind and a column count. Issue 55 asks
 * ingest to reach 50x gpxpy + sqlite3; this is the floor that says how close SQLite lets it.
 * Usage (scripts/bench/bench_sqlite_floor.sh): sqlite_floor JOURNAL_MODE KIND COLUMNS
 *   KIND 0: WITHOUT ROWID, primary key (file_id, seq), as the store's `fixes`;
 *   KIND 1: rowid table with that primary key; KIND 2: rowid table, no key. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s JOURNAL_MODE KIND COLUMNS\n", argv[0]); return 64; }
    const char *mode = argv[1];
    int kind = atoi(argv[2]), columns = atoi(argv[3]), rows = 514167, block = 64;
    if (columns < 3 || columns > 16) { fprintf(stderr, "COLUMNS must be 3 to 16\n"); return 64; }
    remove("sqlite-floor.db"); remove("sqlite-floor.db-wal"); remove("sqlite-floor.db-shm");
    sqlite3 *db;
    if (sqlite3_open("sqlite-floor.db", &db) != SQLITE_OK) return 1;
    char sql[8192], definition[4096] = "file_id INTEGER NOT NULL, seq INTEGER NOT NULL";
    sqlite3_exec(db, "PRAGMA page_size=16384", 0, 0, 0); /* the store's */
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", mode);
    sqlite3_exec(db, sql, 0, 0, 0);
    sqlite3_exec(db, "PRAGMA synchronous=NORMAL", 0, 0, 0);
    for (int c = 2; c < columns; c++) {
        char column[32];
        snprintf(column, sizeof column, ", c%d REAL", c);
        strcat(definition, column);
    }
    const char *shapes[] = {"CREATE TABLE f (%s, PRIMARY KEY (file_id, seq)) WITHOUT ROWID",
                            "CREATE TABLE f (%s, PRIMARY KEY (file_id, seq))", "CREATE TABLE f (%s)"};
    snprintf(sql, sizeof sql, shapes[kind < 0 || kind > 2 ? 0 : kind], definition);
    if (sqlite3_exec(db, sql, 0, 0, 0) != SQLITE_OK) return 1;
    static char insert[65536] = "INSERT INTO f VALUES ";
    for (int r = 0; r < block; r++) {
        strcat(insert, r ? ",(" : "(");
        for (int c = 0; c < columns; c++) strcat(insert, c ? ",?" : "?");
        strcat(insert, ")");
    }
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(db, insert, -1, &statement, 0) != SQLITE_OK) return 1;
    double start = now();
    sqlite3_exec(db, "BEGIN", 0, 0, 0);
    for (int i = 0; i < rows; i += block) { /* whole blocks: the last one writes up to 63 rows more */
        sqlite3_reset(statement);
        for (int r = 0; r < block; r++) {
            int first = r * columns;
            long seq = i + r;
            sqlite3_bind_int64(statement, first + 1, 1);
            sqlite3_bind_int64(statement, first + 2, seq);
            /* time, lat, lon, elevation, accuracy, hdop set; the rest NULL, as a GPX fix. */
            for (int c = 2; c < columns; c++) {
                if (c < 8) sqlite3_bind_double(statement, first + c + 1, 48.0 + seq * 1e-6 + c);
                else sqlite3_bind_null(statement, first + c + 1);
            }
        }
        if (sqlite3_step(statement) != SQLITE_DONE) return 1;
    }
    sqlite3_exec(db, "COMMIT", 0, 0, 0);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    printf("journal %-6s %-28s %2d columns: %.3f s for %d rows (%.2f M rows/s), closed\n", mode,
           kind == 0 ? "WITHOUT ROWID (the store's)" : kind == 1 ? "rowid, primary key" : "rowid, no key", columns,
           now() - start, rows, rows / (now() - start) / 1e6);
    remove("sqlite-floor.db"); remove("sqlite-floor.db-wal"); remove("sqlite-floor.db-shm");
    return 0;
}
