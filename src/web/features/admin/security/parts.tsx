/** Small pieces the security cards share: the severity badge (a word, never colour alone) and a time. */
import { fullDate, timeAgo } from "../../../lib/time";
import { SEVERITY_LABEL } from "./queries";

export function Severity({ level }: { level: number }) {
  return <span className={`sec-badge sec-sev-${level}`}>{SEVERITY_LABEL[level] ?? `Severity ${level}`}</span>;
}

export function When({ at }: { at: string }) {
  return (
    <time dateTime={at} title={fullDate(at)}>
      {timeAgo(at)}
    </time>
  );
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
