import { Fragment } from "react";
import { Link } from "wouter";
import type { Space } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { ancestorsOf, useTree } from "../tree/queries";

/** Space › parent › … › page, from the cached tree (no request of its own). */
export function Breadcrumbs({ space, pageId }: { space: Space; pageId?: string }) {
  const tree = useTree(space.id);
  const chain = pageId ? ancestorsOf(tree.data, pageId) : [];
  return (
    <>
      <Link href={`/s/${space.key}`} aria-current={chain.length === 0 ? "page" : undefined}>
        {space.name}
      </Link>
      {chain.map((node, i) => (
        <Fragment key={node.id}>
          <span className="crumb-sep" aria-hidden="true">
            /
          </span>
          {i === chain.length - 1 ? (
            <span aria-current="page">{node.title || "Untitled"}</span>
          ) : (
            <Link href={pagePath(space.key, node.id, node.title)}>{node.title || "Untitled"}</Link>
          )}
        </Fragment>
      ))}
    </>
  );
}
