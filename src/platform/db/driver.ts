/**
 * The database driver of one instance as the stores reach it (docs/architecture.md, "Stores:
 * one owner per table"). The core carries it under a key only this module knows, so that the
 * core's type can stop naming it: a service that holds the core then has no driver to reach
 * for, and only the stores and the platform call `driverOf` (tests/table-owners.test.ts).
 */
import type { Database } from "bun:sqlite";
import type { Db } from "./open";

export interface Driver {
  readonly sqlite: Database;
  readonly db: Db;
}

const DRIVER = Symbol("cairn.driver");

type Carrier = { [DRIVER]?: Driver };

/** Gives a core its driver (assembleCore). A plain property: a core made from it by `Object.create` or a spread keeps it. */
export function attachDriver<T extends object>(core: T, driver: Driver): T {
  (core as Carrier)[DRIVER] = driver;
  return core;
}

/** The driver of the instance whose core this is: a property read, as `core.db` was. */
export function driverOf(core: object): Driver {
  const driver = (core as Carrier)[DRIVER];
  if (!driver) throw new Error("driverOf: this object is not a core (no driver attached)");
  return driver;
}
