-- Outbound TLS policy (src/outbound/tls-policy/). MTA-STS policies are kept for their max_age, so a
-- restart does not forget them (RFC 8461 5.1: a policy that cannot be fetched again still applies).
CREATE TABLE mta_sts_policies (
  domain TEXT PRIMARY KEY,
  -- the _mta-sts TXT id the policy was fetched under: a new id makes it fetched again
  record_id TEXT NOT NULL,
  -- the policy file as served (parsed again when read: one parser)
  policy TEXT NOT NULL,
  fetched_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

-- TLS-RPT (RFC 8460): sessions counted per UTC day, policy domain and result ('success' or an RFC
-- 8460 result type); failures name the MX host and address. Sent once a day, then removed.
CREATE TABLE tls_report_counts (
  day TEXT NOT NULL,
  policy_domain TEXT NOT NULL,
  policy_type TEXT NOT NULL,
  -- JSON array of the policy's lines, as the report's policy-string
  policy_string TEXT NOT NULL,
  result_type TEXT NOT NULL,
  mx_host TEXT NOT NULL,
  receiving_ip TEXT NOT NULL,
  detail TEXT NOT NULL,
  sessions INTEGER NOT NULL,
  PRIMARY KEY (day, policy_domain, policy_type, policy_string, result_type, mx_host, receiving_ip)
) WITHOUT ROWID;

-- One row per report made (day and policy domain): which rua URIs have it, so that no one gets it twice.
CREATE TABLE tls_reports (
  day TEXT NOT NULL,
  policy_domain TEXT NOT NULL,
  report_id TEXT NOT NULL,
  -- the gzipped RFC 8460 JSON, made once: every rua gets the same report
  report BLOB NOT NULL,
  -- JSON array of the rua URIs it was delivered to
  delivered TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (day, policy_domain)
) WITHOUT ROWID;
