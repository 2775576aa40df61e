/**
 * What a command tells the person who ran it when it cannot do its work: one line, printed as
 * "cairn: <message>", exit status 2 (main.ts). Nothing was changed when one is thrown.
 */
export class CommandError extends Error {}
