// TEMPORARY scaffold, replaced by the search feature (Ctrl-K palette).
import { Link } from "wouter";
export function SearchLauncher(_: { spaceId?: string }) {
  return <Link href="/search">Search</Link>;
}
