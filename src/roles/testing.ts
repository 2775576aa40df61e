/** Test helpers for roles: a custom role written straight to the table, and giving it to someone. */
import type { Core } from "../core";
import { iso } from "../platform/clock";
import { newId } from "../platform/crypto";

export function makeRole(core: Core, input: { name?: string; tier?: number; permissions?: string[] } = {}): string {
  const id = newId();
  core.sqlite
    .query("INSERT INTO roles (id, name, description, tier, built_in, permissions, created_at) VALUES (?, ?, '', ?, 0, ?, ?)")
    .run(id, input.name ?? `Role ${id.slice(-8)}`, input.tier ?? 0, JSON.stringify(input.permissions ?? []), iso(core.clock.now()));
  return id;
}

export function giveRole(core: Core, userId: string, roleId: string): void {
  core.sqlite.query("UPDATE users SET role_id = ? WHERE id = ?").run(roleId, userId);
}
