import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from "../auth/sessions";

/** A cookie's value; one that cannot be read (bad percent-encoding) is as good as absent. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      if (!raw.includes("%")) return raw;
      try {
        return decodeURIComponent(raw);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * HttpOnly, SameSite=Lax; Secure when the request arrived over HTTPS. Max-Age is what is left
 * of the session's absolute lifetime (a session given a new id keeps its original end).
 */
export function sessionCookie(value: string, secure: boolean, maxAgeSeconds = SESSION_ABSOLUTE_MS / 1000): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}
