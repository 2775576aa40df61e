import type { Core } from "../core";
import { installNotificationFanout } from "./fanout";
import { installNotificationSchedule } from "./schedule";

/** Called once from openInstance: the in-transaction fan-out and the hourly timer. */
export function installNotifications(core: Core): void {
  installNotificationFanout(core);
  installNotificationSchedule(core);
}
