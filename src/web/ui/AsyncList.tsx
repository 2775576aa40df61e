/**
 * A list read from the server, in its four states: loading, failed (the server's words and a way
 * to ask again), empty (what the screen says when there is nothing yet), and the items. Screens
 * give the words and the list; the states look the same everywhere.
 */
import type { ReactNode } from "react";
import { Loading } from "../app/Loading";
import { Button } from "./Button";

/** What AsyncList reads of a query (a plain or a paged one). */
interface QueryState<T> {
  isPending: boolean;
  error: Error | null;
  data: T | undefined;
  refetch(): unknown;
}

/** `empty` is shown for an empty list; an answer that is not a list (a summary) goes to `children` as it is. */
export function AsyncList<T>({
  query,
  what,
  empty,
  loadingLabel,
  children,
}: {
  query: QueryState<T>;
  what: string;
  empty?: ReactNode;
  loadingLabel?: string;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.error) return <LoadError what={what} error={query.error} retry={() => void query.refetch()} />;
  const data = query.data as T;
  if (empty !== undefined && Array.isArray(data) && data.length === 0) return <>{empty}</>;
  return <>{children(data)}</>;
}

/** "The tokens could not be loaded: …", with Try again (the answer may have been a passing failure). */
export function LoadError({ what, error, retry }: { what: string; error: Error; retry(): void }) {
  return (
    <p className="form-error" role="alert">
      {what} could not be loaded: {error.message}{" "}
      <Button size="sm" variant="ghost" onClick={retry}>
        Try again
      </Button>
    </p>
  );
}
