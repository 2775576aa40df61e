-- Authors an import did not credit to an account (docs/decisions.md, "Imports credit accounts
-- only for those who may act for others"): the comment or version is the importer's and keeps
-- the name the archive gave, shown as "Name (imported)". A version's name is kept beside it
-- rather than in page_versions, whose document is its last column (a column added after it
-- would be read through the document's overflow pages whenever the history is listed).
ALTER TABLE `comments` ADD `imported_author` text;
--> statement-breakpoint
CREATE TABLE `page_version_imported_authors` (
	`page_id` text NOT NULL,
	`version_number` integer NOT NULL,
	`name` text NOT NULL,
	PRIMARY KEY(`page_id`, `version_number`),
	FOREIGN KEY (`page_id`,`version_number`) REFERENCES `page_versions`(`page_id`,`version_number`) ON UPDATE no action ON DELETE cascade
);
