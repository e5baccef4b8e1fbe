-- 007: results of instrumentation handler libraries (issue 21) in the store.
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 7.
--
-- Migration 005 allowed only the built-in tools' names in tool_result.tool;
-- a handler library (`profile --tool ./x.so`, `tool run ./x.so`) is named by
-- its descriptor, 1 to 64 letters, digits, '-' or '_' (ws-instrument-sdk.h),
-- so the CHECK now takes any such name.  `handler` tells a handler's result
-- from a built-in tool's of the same name and says which library, with which
-- arguments, produced it.
--
-- SQLite cannot change a CHECK in place: the table is rebuilt (new table,
-- rows copied with their ids and dates, old one dropped, new one renamed,
-- index recreated).  Nothing references tool_result, so the rebuild needs no
-- foreign-key handling.

CREATE TABLE tool_result_007 (
  id       INTEGER PRIMARY KEY,
  tool     TEXT NOT NULL CHECK (length (tool) BETWEEN 1 AND 64),
  handler  TEXT,                           -- handler library as loaded: absolute PATH[:ARGS]; NULL for a built-in tool
  program  TEXT NOT NULL,                  -- the program as run (absolute path)
  args     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid (args)),
  trace    TEXT,                           -- trace of the same run, if one was written
  result   TEXT NOT NULL CHECK (json_valid (result)),
  created  TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

INSERT INTO tool_result_007 (id, tool, handler, program, args, trace, result, created)
  SELECT id, tool, NULL, program, args, trace, result, created FROM tool_result;

DROP TABLE tool_result;
ALTER TABLE tool_result_007 RENAME TO tool_result;

CREATE INDEX tool_result_by_program ON tool_result (program, tool);
