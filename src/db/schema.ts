// Every table, for drizzle-kit (`bun run db:generate`). Each domain owns its tables.ts.
export * from "../users/tables";
export * from "../auth/tables";
export * from "../tokens/tables";
export * from "../settings/tables";
export * from "../spaces/tables";
export * from "../pages/tables";
export * from "../events/tables";
export * from "../groups/tables";
export * from "../audit/tables";
export * from "../webhooks/tables";
export * from "../labels/tables";
export * from "../comments/tables";
export * from "../templates/tables";
export * from "../attachments/tables";
export * from "../watches/tables";
export * from "../notifications/tables";
export * from "../permissions/tables";
