-- A key never has more power than the member who made it (DECISIONS, scoped keys): the role a key
-- acts with, and the console user who made it (null: the operator, through the CLI, the admin
-- token or the first start, whose keys act as OWNER). A key made by a user stops working once that
-- user no longer holds the role in the project (removed, demoted or disabled).
ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'OWNER' CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER'));
ALTER TABLE api_keys ADD COLUMN made_by TEXT REFERENCES users(id) ON DELETE CASCADE;
