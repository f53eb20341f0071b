-- Events per project and name, kept by triggers so /activity/stats reads a few rows instead of
-- counting millions. `firsts` counts the events that were an email's first open or first click.
CREATE TABLE event_counts (
  project_id  TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  count       INTEGER NOT NULL DEFAULT 0,
  firsts      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, name)
) WITHOUT ROWID;

-- Only email events can be a first open or click; instr() spares parsing the data of all others.
CREATE TRIGGER event_counts_insert AFTER INSERT ON events BEGIN
  INSERT INTO event_counts (project_id, name, count, firsts)
  VALUES (NEW.project_id, NEW.name, 1,
          NEW.email_id IS NOT NULL AND instr(NEW.data, '"isFirst') > 0
            AND (json_extract(NEW.data, '$.isFirstOpen') IS 1 OR json_extract(NEW.data, '$.isFirstClick') IS 1))
  ON CONFLICT (project_id, name) DO UPDATE SET count = count + 1, firsts = firsts + excluded.firsts;
END;

CREATE TRIGGER event_counts_delete AFTER DELETE ON events BEGIN
  UPDATE event_counts SET
    count = count - 1,
    firsts = firsts - (OLD.email_id IS NOT NULL AND instr(OLD.data, '"isFirst') > 0
                       AND (json_extract(OLD.data, '$.isFirstOpen') IS 1 OR json_extract(OLD.data, '$.isFirstClick') IS 1))
  WHERE project_id = OLD.project_id AND name = OLD.name;
END;

INSERT INTO event_counts (project_id, name, count, firsts)
  SELECT project_id, name, COUNT(*),
         SUM(email_id IS NOT NULL AND instr(data, '"isFirst') > 0
             AND (json_extract(data, '$.isFirstOpen') IS 1 OR json_extract(data, '$.isFirstClick') IS 1))
  FROM events GROUP BY project_id, name;
