// TEMPORARY scaffold, replaced by the page feature (reading view, lazy editor).
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Space } from "../../api/types";

export function PageScreen({ pageId }: { space: Space; pageId: string; mode: "read" | "edit" }) {
  const page = useQuery({ queryKey: keys.page(pageId), queryFn: () => data(api.GET("/api/pages/{id}", { params: { path: { id: pageId } } })) });
  return (
    <main id="main" className="main-column">
      <h1>{page.data?.title}</h1>
    </main>
  );
}
