/**
 * A refusal as a sentence: invalid("password", "must be at least 8 characters") reads "The
 * password must be at least 8 characters." The field stays machine-readable in the problem's
 * `field` and `errors`; `detail` is what people read (the web UI and the command line show it
 * as it is), so it never starts with a field name and a colon.
 */

/** Field names whose words alone would not say what the person filled in. */
const FIELD_WORDS: Record<string, string> = {
  displayName: "name",
  email: "e-mail address",
  inviteToken: "invite link",
  token: "link",
  contentJson: "page content",
  contentMarkdown: "Markdown",
  expiresInDays: "number of days until it expires",
  q: "search text",
  body: "request body",
  url: "URL",
  cidr: "address range",
  emoji: "emoji",
  iconColor: "icon colour",
  accessKeyId: "access key ID",
  secretAccessKey: "secret access key",
  smtpHost: "mail server",
  smtpFromAddress: "from address",
};

/** The words a reason may start with that make "The <field> <reason>" a sentence. */
const VERBS = new Set([
  "is",
  "are",
  "must",
  "has",
  "have",
  "had",
  "was",
  "were",
  "would",
  "could",
  "can",
  "cannot",
  "should",
  "does",
  "do",
  "may",
  "needs",
  "takes",
  "names",
  "name",
  "holds",
  "converts",
  "nests",
  "broke",
  "exceeds",
  "contains",
  "lists",
  "matches",
]);

/** "accessKeyId" → "access key id"; "spaces.0.operation" → "operation" (the innermost named part). */
export function fieldWords(field: string): string {
  const last =
    field
      .split(".")
      .filter((p) => p !== "" && !/^\d+$/.test(p))
      .pop() ?? field;
  return (
    FIELD_WORDS[last] ??
    last
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/[_-]+/g, " ")
      .toLowerCase()
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const ended = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** "The <field> <reason>." when the reason starts with a verb; otherwise the reason as its own sentence. */
export function fieldSentence(field: string, reason: string): string {
  const text = reason.trim();
  const first = text.split(/\s/, 1)[0] ?? "";
  return ended(VERBS.has(first) ? `The ${fieldWords(field)} ${text}` : capitalised(text));
}
