-- An invitation is a membership not yet accepted: it gives no role until its user accepts it
-- through the project's own invitation link (accepted_at null until then), and it shows the
-- address as the project wrote it (invited_email), not the account's, which may have been written
-- otherwise by whoever made it. Memberships made before are accepted. Invitation links now name
-- their project (setup_links.project_id); the links of the earlier kind named only the user, and
-- set the password of whoever held one whatever project made it: they are dropped (invite again).
ALTER TABLE memberships ADD COLUMN accepted_at INTEGER;
ALTER TABLE memberships ADD COLUMN invited_email TEXT;
UPDATE memberships SET accepted_at = created_at;
DELETE FROM setup_links WHERE purpose = 'invite';
