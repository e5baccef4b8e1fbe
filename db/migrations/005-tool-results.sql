-- 005: results of the instrumentation tools (core/instrument,
-- docs/instrumentation.md): one row per tool per profiled run, the JSON
-- exactly as written next to the trace (TRACE.TOOL.json).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 5.

CREATE TABLE tool_result (
  id       INTEGER PRIMARY KEY,
  tool     TEXT NOT NULL CHECK (tool IN ('branch', 'memdiv', 'value', 'faults')),
  program  TEXT NOT NULL,                  -- the program as run (absolute path)
  args     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid (args)),
  trace    TEXT,                           -- trace of the same run, if one was written
  result   TEXT NOT NULL CHECK (json_valid (result)),
  created  TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX tool_result_by_program ON tool_result (program, tool);
