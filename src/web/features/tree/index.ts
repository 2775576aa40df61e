import { lazy } from "react";

// The tree (with its virtual list and drag and drop) is a chunk of its own: a page's first view
// is drawn before the tree (lib/first-paint.ts), so the page need not wait for its code either.
// Its first view imports it after that paint; the server's Link header has fetched it meanwhile
// (http/ui-preload.ts finds it by its name, PageTree-*.js: keep the file's name).
export const PageTree = lazy(() => import("./PageTree").then((m) => ({ default: m.PageTree })));
export { useTree, ancestorsOf } from "./queries";
export { TreeSkeleton } from "./TreeSkeleton";
