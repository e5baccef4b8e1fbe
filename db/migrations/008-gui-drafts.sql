-- 008: the desktop app's documents beside the core models (issue 16).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 8.
--
-- gui_system_design holds the system designer's layouts and drafts,
-- gui_app_draft the application editor's drafts that do not validate yet
-- (app/gui/ws-gui-drafts.c reads and writes both): a document's name, its
-- JSON text as the editor keeps it, and when it last changed.
--
-- The GUI used to create these tables itself on first use, with exactly
-- these columns, so a database the GUI has opened may already hold them:
-- IF NOT EXISTS keeps those tables and their documents as they are.

CREATE TABLE IF NOT EXISTS gui_system_design (
  name     TEXT PRIMARY KEY,
  document TEXT NOT NULL,
  modified TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE IF NOT EXISTS gui_app_draft (
  name     TEXT PRIMARY KEY,
  document TEXT NOT NULL,
  modified TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
