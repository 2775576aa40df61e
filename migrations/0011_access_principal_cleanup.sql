-- Grants and restrictions name a user or a group by id (no foreign key: the column holds
-- either). When the user or group is deleted, its rows go with it: a grant simply disappears
-- (less access, never more). A restriction row disappears too, except when it is the last one
-- of its page and operation: removing it would lift the restriction and open the page to the
-- whole space, so it stays, naming nobody who exists (only space admins then pass it) until a
-- space admin removes or replaces it.
CREATE TRIGGER `users_delete_access` AFTER DELETE ON `users` BEGIN
  DELETE FROM `space_grants` WHERE `principal_type` = 0 AND `principal_id` = OLD.`id`;
  DELETE FROM `page_restrictions` WHERE `principal_type` = 0 AND `principal_id` = OLD.`id`
    AND EXISTS (SELECT 1 FROM `page_restrictions` o WHERE o.`page_id` = `page_restrictions`.`page_id`
      AND o.`operation` = `page_restrictions`.`operation` AND NOT (o.`principal_type` = 0 AND o.`principal_id` = OLD.`id`));
END;
--> statement-breakpoint
CREATE TRIGGER `groups_delete_access` AFTER DELETE ON `groups` BEGIN
  DELETE FROM `space_grants` WHERE `principal_type` = 1 AND `principal_id` = OLD.`id`;
  DELETE FROM `page_restrictions` WHERE `principal_type` = 1 AND `principal_id` = OLD.`id`
    AND EXISTS (SELECT 1 FROM `page_restrictions` o WHERE o.`page_id` = `page_restrictions`.`page_id`
      AND o.`operation` = `page_restrictions`.`operation` AND NOT (o.`principal_type` = 1 AND o.`principal_id` = OLD.`id`));
END;
