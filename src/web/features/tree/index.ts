import { lazy } from "react";

// The tree (with its virtual list and drag and drop) is a chunk of its own: a page's first view
// is drawn before the tree (lib/first-paint.ts), so the page need not wait for its code either.
const loadTree = () => import("./PageTree");
export const PageTree = lazy(() => loadTree().then((m) => ({ default: m.PageTree })));
/** Starts downloading the tree's code (a view in a space is opening). */
export const preloadTree = () => void loadTree();
export { useTree, ancestorsOf } from "./queries";
export { TreeSkeleton } from "./TreeSkeleton";
