-- Emails whose content is for their recipient only: the daemon's own account mail (invitations),
-- whose links act as the recipient. They are delivered like any email of the project and listed in
-- its log, but no route shows their message (GET /emails/{id}/raw and /checks answer 403).
CREATE TABLE sealed_emails (
  email_id  TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE
) WITHOUT ROWID;
