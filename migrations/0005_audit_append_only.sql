-- The audit log is append-only (docs/decisions.md, "Audit log"): the database itself refuses to change or remove
-- an entry, whoever asks. Verification (POST /api/admin/audit/verify) catches what is done
-- around these triggers (dropping them, editing the file).
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log` BEGIN
  SELECT RAISE(ABORT, 'audit log is append-only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log` BEGIN
  SELECT RAISE(ABORT, 'audit log is append-only');
END;
