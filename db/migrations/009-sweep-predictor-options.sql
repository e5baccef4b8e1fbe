-- 009: the predictor plugin's options a sweep ran with (issue 18).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 9.
--
-- A JSON object of option name -> value as text ({"lambda": "0.5"}), every
-- option the run set (`model run --option PLUGIN.KEY=VALUE`, the GUI's
-- option rows); NULL: the plugin's defaults, or a sweep stored before this
-- migration, or a predictor without options (the simulators).

ALTER TABLE model_sweep ADD COLUMN predictor_options TEXT
  CHECK (predictor_options IS NULL OR (json_valid (predictor_options) AND json_type (predictor_options) = 'object'));
