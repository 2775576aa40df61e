/**
 * Each command's usage line, apart from the command itself: main.ts prints them all in its help,
 * and loads a command's module only when that command runs (a start evaluates no other).
 */
export const RESET_PASSWORD_USAGE = "cairn reset-password EMAIL [--data DIR]";
export const USERS_USAGE = "cairn users [--data DIR]";
export const SETUP_CODE_USAGE = "cairn setup-code [--data DIR]";
export const BACKUP_USAGE = "cairn backup [list] [--data DIR]";
export const RESTORE_USAGE = "cairn restore LABEL|undo [--at TIME] [--data DIR]";
