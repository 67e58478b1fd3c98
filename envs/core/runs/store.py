"""The sweep store: every finished point of a run directory in one SQLite database.

A sweep's rows live in `<run dir>/results.sqlite` (SQLite from the standard library), one
transaction per finished point; `results.csv` (and any other results file of the run, e.g.
`results_hybrid.csv`) is an *export* of the database, rewritten atomically (temporary file,
fsync, rename) of the run's own grid, in grid order.  Kills at any instruction, concurrent
writers and damaged files are therefore handled by the database, not by CSV repair: a killed
sweep loses at most the points still running, a results.csv cut or edited by hand is simply
rewritten, and two processes writing different grids into one run directory both keep all
their rows in the store (`gaittwin export RUNDIR` writes every stored row: results_all.csv).
A stored row is reused only when its identity matches the point asked for (envs/core/runs/identity.py).

Schema (version 1)
------------------
    store_info(key TEXT PRIMARY KEY, value TEXT NOT NULL)
        'schema_version' -> '1'
    results_files(
        file        TEXT PRIMARY KEY,  -- the results file its rows export to: 'results.csv', ...
        key_columns TEXT NOT NULL,     -- JSON list: the columns that address a row of the file
        columns     TEXT NOT NULL)     -- JSON list: the exported header (key columns, metrics,
                                       --   health columns, 'error' last)
    points(
        file     TEXT NOT NULL,        -- results_files.file
        key      TEXT NOT NULL,        -- canonical JSON list of the row's key-column values
        identity TEXT NOT NULL,        -- sha256 hex of `ident`
        ident    TEXT NOT NULL,        -- the canonical identity document (says why a row is stale)
        row      TEXT NOT NULL,        -- JSON object: all robot parameters, meta columns, metrics,
                                       --   health values and 'error' ('' when healthy)
        error    TEXT NOT NULL,        -- the row's error ('' for a healthy point)
        finished REAL NOT NULL,        -- unix time of the commit
        digest   TEXT NOT NULL,        -- sha256 of ident, row and error: a damaged row is detected
        PRIMARY KEY (file, key))

A results file has one row per key: a point recomputed with another identity replaces the row
of the same key.  A later call addressing a file by more key columns (the crawler keys every
parameter that differs from its default) re-keys the stored rows over the union of columns.

Journal mode and concurrency
----------------------------
SQLite's WAL mode is unsafe on the network filesystems of cluster jobs (SLURM, Ray): the store uses
the rollback journal (`journal_mode=DELETE`, `synchronous=FULL`) and POSIX locks with a busy timeout
(concurrent writers wait for each other).  Each finished point is one `BEGIN IMMEDIATE ... COMMIT`,
made by a background thread (Committer); a killed process loses only the points running or queued.

Damage
------
Opening runs `PRAGMA quick_check`; a file that is not a database or fails the check is *refused*
(StoreError, exit 2 from scripts/run.py), not rebuilt: it points at a storage problem, and its rows
may be salvageable (`sqlite3 results.sqlite .recover`); moving it aside recomputes everything.  A
row whose checksum does not match (damage the structure check cannot see) is recomputed.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import pathlib
import queue
import sqlite3
import threading
import time

from .csvio import _json_default, fmt, parse, read_csv, write_csv  # noqa: F401  (CSV: csvio.py)
from ..model.errors import StoreError
from .identity import IDENTITY_VERSION, REASONS, canon, code_hash, dumps, identity_of, key_of, stale_reason  # noqa: F401

DB_NAME = "results.sqlite"
SCHEMA_VERSION = "1"
BUSY_TIMEOUT_S = 600.0       # concurrent writers wait this long for the lock (cluster jobs)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS store_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results_files(
    file TEXT PRIMARY KEY, key_columns TEXT NOT NULL, columns TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS points(
    file TEXT NOT NULL, key TEXT NOT NULL, identity TEXT NOT NULL, ident TEXT NOT NULL,
    row TEXT NOT NULL, error TEXT NOT NULL, finished REAL NOT NULL, digest TEXT NOT NULL,
    PRIMARY KEY (file, key));
"""


def _raw(obj) -> str:
    """A row as JSON with its own types (NaN kept), for storage."""
    return json.dumps(obj, default=_json_default, separators=(",", ":"))


def _digest(ident: str, row: str, error: str) -> str:
    return hashlib.sha256(b"\0".join(x.encode() for x in (ident, row, error))).hexdigest()


# ---- the database -----------------------------------------------------------------------
class Store:
    """One run directory's database.  Use as a context manager, or call close()."""

    def __init__(self, run_dir, *, timeout: float = BUSY_TIMEOUT_S, check: bool = True):
        """check: run the integrity check and create the schema (False: a second connection of a
        process that has just done so, e.g. the committer thread)."""
        self.dir = pathlib.Path(run_dir)
        self.path = self.dir / DB_NAME
        existed = self.path.exists() and self.path.stat().st_size > 0
        try:
            self.con = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot open the results database ({e})") from None
        try:
            self.con.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            mode = self.con.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            if str(mode).lower() != "delete":
                raise sqlite3.DatabaseError(f"journal mode {mode} cannot be changed to DELETE")
            self.con.execute("PRAGMA synchronous=FULL")
            if not check:
                return
            if existed:
                check = [r[0] for r in self.con.execute("PRAGMA quick_check").fetchall()]
                if check != ["ok"]:
                    raise sqlite3.DatabaseError("; ".join(map(str, check[:3])))
            with self.transaction():
                for stmt in filter(str.strip, _SCHEMA.split(";")):
                    self.con.execute(stmt)
                row = self.con.execute("SELECT value FROM store_info WHERE key='schema_version'").fetchone()
                if row is None:
                    self.con.execute("INSERT INTO store_info VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
                elif row[0] != SCHEMA_VERSION:
                    raise StoreError(f"{self.path} has store schema version {row[0]}, this gaittwin writes "
                                     f"version {SCHEMA_VERSION}: use a new run directory")
        except StoreError:
            self.con.close()
            raise
        except sqlite3.OperationalError as e:      # full disk, I/O or permission: the storage, not the file
            self.con.close()
            raise StoreError(f"{self.path} cannot be written ({e}); nothing was computed") from None
        except sqlite3.DatabaseError as e:
            self.con.close()
            raise StoreError(f"{self.path} is damaged ({e}); nothing was computed. Its rows may be salvageable "
                             f"with `sqlite3 {self.path} .recover`; move it aside to recompute the run") from None

    @contextlib.contextmanager
    def transaction(self):
        """BEGIN IMMEDIATE (the write lock, waiting up to the busy timeout) ... COMMIT."""
        self.con.execute("BEGIN IMMEDIATE")
        try:
            yield self.con
        except BaseException:
            with contextlib.suppress(sqlite3.Error):   # SQLite may have rolled back itself (disk full):
                self.con.execute("ROLLBACK")            # the original error is the one to see
            raise
        self.con.execute("COMMIT")

    def close(self) -> None:
        self.con.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- results files -------------------------------------------------------------------
    def has_file(self, file: str) -> bool:
        return file in self.files()
    def open_file(self, file: str, key_columns: list, columns: list) -> tuple[list, list]:
        """Register a results file (or widen its key columns); returns (key columns, header)."""
        with self.transaction() as con:
            row = con.execute("SELECT key_columns, columns FROM results_files WHERE file=?", (file,)).fetchone()
            if row is None:
                key, header = list(key_columns), _header(key_columns, columns, [])
                con.execute("INSERT INTO results_files VALUES (?, ?, ?)", (file, json.dumps(key), json.dumps(header)))
                return key, header
            old_key, old_header = json.loads(row[0]), json.loads(row[1])
            key = old_key + [c for c in key_columns if c not in old_key]
            header = _header(key, columns, old_header)
            if key != old_key:     # re-key the stored rows over the wider set of columns
                for k, raw in con.execute("SELECT key, row FROM points WHERE file=?", (file,)).fetchall():
                    try:
                        values = json.loads(raw)
                    except ValueError:
                        continue        # a damaged row keeps its key; it is never reused
                    con.execute("UPDATE points SET key=? WHERE file=? AND key=?", (key_of(values, key), file, k))
            if key != old_key or header != old_header:
                con.execute("UPDATE results_files SET key_columns=?, columns=? WHERE file=?",
                            (json.dumps(key), json.dumps(header), file))
            return key, header

    def rows(self, file: str, keys=None) -> dict:
        """key -> StoredRow for every row of a results file in the order finished, or for those of `keys`
        that are stored (a run's call reads only its own points); one consistent read."""
        cols = "SELECT key, identity, ident, row, error, finished, digest FROM points WHERE file=?"
        with self._read() as con:
            if keys is None:
                found = con.execute(f"{cols} ORDER BY finished, key", (file,)).fetchall()
            else:
                keys, found = list(dict.fromkeys(keys)), []
                for i in range(0, len(keys), 500):       # within SQLite's limit of bound variables
                    part = keys[i:i + 500]
                    found += con.execute(f"{cols} AND key IN ({','.join('?' * len(part))})", (file, *part)).fetchall()
        return {r[0]: StoredRow(*r) for r in found}

    def header(self, file: str) -> list:
        row = self.con.execute("SELECT columns FROM results_files WHERE file=?", (file,)).fetchone()
        return json.loads(row[0]) if row else []

    @contextlib.contextmanager
    def _read(self):
        if self.con.in_transaction:         # within another read: part of that one
            yield self.con
            return
        self.con.execute("BEGIN")
        try:
            yield self.con
        finally:
            self.con.execute("COMMIT")

    def key_columns(self, file: str) -> list:
        row = self.con.execute("SELECT key_columns FROM results_files WHERE file=?", (file,)).fetchone()
        return json.loads(row[0]) if row else []

    def put(self, file: str, key: str, identity: str, ident: str, row: dict, error: str,
            key_columns=None) -> None:
        """Store one finished point: one transaction.  key_columns: the columns `key` was made
        over; if another writer has widened the file's key columns since, the key is remade."""
        raw = _raw(row)
        with self.transaction() as con:
            if key_columns is not None:
                now = self.key_columns(file)
                if now != list(key_columns):
                    key = key_of(row, now)
            con.execute("INSERT OR REPLACE INTO points VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (file, key, identity, ident, raw, error, time.time(), _digest(ident, raw, error)))

    # ---- export ----------------------------------------------------------------------------
    def files(self) -> list:
        return [r[0] for r in self.con.execute("SELECT file FROM results_files ORDER BY file")]

    def export(self, file: str, keys=None, to=None, write: bool = True) -> tuple[list, list]:
        """Write `to` (default out/<file>) atomically: the stored rows of `keys` in that order (a run's grid;
        other grids' rows stay in the store), or, keys None, every stored row in the order finished
        (`gaittwin export`).  Returns (header, [(key, row as a dict of header columns)] in file order);
        write False: only returns them."""
        with self._read():
            header = self.header(file)
            stored = {k: s.values() for k, s in self.rows(file, keys).items()
                      if s.intact}      # damaged: not exported (it is recomputed on the next run)
        order = list(stored) if keys is None else [k for k in dict.fromkeys(keys) if k in stored]
        rows = [(k, {c: stored[k].get(c) for c in header}) for k in order]
        if write:
            write_csv(to or self.dir / file, header, [r for _, r in rows])
        return header, rows


    def export_all(self, file: str, to) -> tuple[list, str | None]:
        """Every stored row of `file` to the path `to` (`gaittwin export`), atomically; a file already there
        that this store's own last export did not write (a user's) is first moved aside (rundir.aside).
        Returns (the rows, the name it was moved to or None)."""
        from .rundir import aside
        to, moved = pathlib.Path(to), None
        tag = f"export:{to.resolve()}"
        if to.exists():
            mine = self.con.execute("SELECT value FROM store_info WHERE key=?", (tag,)).fetchone()
            if mine is None or mine[0] != _sha256(to):
                moved = aside(to)
                to.replace(moved)
        _, rows = self.export(file, None, to=to)
        with self.transaction() as con:
            con.execute("INSERT OR REPLACE INTO store_info VALUES (?, ?)", (tag, _sha256(to)))
        return rows, moved and moved.name


def _sha256(path) -> str:
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


class Committer:
    """Commits finished points in a background thread, each in its own transaction (a few fsyncs),
    so that the simulation never waits for the disk.  put() only queues; an error in the thread is
    raised by the next put() or by close(), which waits until every queued point is committed.  A
    killed process loses the points still queued, like the points still running."""

    def __init__(self, run_dir, file: str, export_keys=(), due=None, key_columns=None):
        """due(): whether to rewrite the file (export_keys) after a commit (the caller's clock,
        rundir.Asked.due); None: never."""
        self.dir, self.file, self.keys, self.due = run_dir, file, list(export_keys), due
        self.key_columns = key_columns
        self.queue: queue.Queue = queue.Queue()
        self.error: BaseException | None = None
        self.committed = 0
        self.busy_s = 0.0          # time spent committing (and exporting) in the thread
        self.thread = threading.Thread(target=self._run, name="gaittwin-store", daemon=True)
        self.thread.start()

    def _run(self):
        try:
            with Store(self.dir, check=False) as db:
                while True:
                    item = self.queue.get()
                    if item is None:
                        return
                    t0 = time.perf_counter()
                    db.put(self.file, *item, key_columns=self.key_columns)
                    self.committed += 1
                    if self.due is not None and self._same_columns(db) and self.due():
                        db.export(self.file, self.keys)
                    self.busy_s += time.perf_counter() - t0
        except BaseException as e:          # reported to the main thread
            self.error = e

    def _same_columns(self, db) -> bool:
        """export_keys were made over key_columns: if another writer has widened the file's key columns since,
        the mid-call export is skipped (the call's end exports under the file's columns)."""
        return self.key_columns is None or db.key_columns(self.file) == list(self.key_columns)

    def put(self, key: str, identity: str, ident: str, row: dict, error: str) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put((key, identity, ident, row, error))

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


class StoredRow:
    __slots__ = ("key", "identity", "ident", "raw", "error", "finished", "digest")

    def __init__(self, key, identity, ident, raw, error, finished, digest):
        self.key, self.identity, self.ident, self.raw = key, identity, ident, raw
        self.error, self.finished, self.digest = error, finished, digest

    @property
    def intact(self) -> bool:
        return self.digest == _digest(self.ident, self.raw, self.error)

    def values(self) -> dict:
        return json.loads(self.raw)


def _header(key_columns, columns, old_header) -> list:
    """Key columns first, then the other columns (this call's order, then older ones), 'error' last."""
    rest = [c for c in list(columns) + list(old_header) if c not in key_columns and c != "error"]
    return list(key_columns) + list(dict.fromkeys(rest)) + ["error"]
