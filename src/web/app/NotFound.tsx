import { Link } from "wouter";
import { EmptyState } from "../ui/EmptyState";

/** One "not found" for anything missing or not yours to see (the API answers both alike). */
export function NotFound({ what = "page" }: { what?: string }) {
  return (
    <main id="main" className="main-column">
      <EmptyState title={`This ${what} does not exist`} action={<Link href="/">Go to your spaces</Link>}>
        It may have been moved or deleted, or you may not have access to it. Check the address, or ask the person who shared it.
      </EmptyState>
    </main>
  );
}
