-- A space an import is still writing (docs/decisions.md, "Imports are staged"): set while its
-- pages go in slice by slice, cleared in the one small transaction that makes it visible. While
-- it is set nobody may see the space, and a server removes any it finds when it starts.
ALTER TABLE `spaces` ADD `staged_at` text;
