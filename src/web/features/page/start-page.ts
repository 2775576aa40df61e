/**
 * Starting a page in one step ("+" beside the space name, on a tree row, "New page"): a draft
 * is made and opened in the editor, the caret in its title; the built-in templates are offered
 * on the empty page. A space that has templates of its own (or the wiki's) shows the chooser
 * first instead, since someone made them to be used.
 */
import { useLocation } from "wouter";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import { queryClient } from "../../api/query-client";
import type { Space } from "../../api/types";
import { pagePath } from "../../lib/slug";
import { useTask } from "../../lib/mutation";
import { useNewDraftMutation } from "./queries";

export function useStartPage(space: Pick<Space, "id" | "key">) {
  const [, navigate] = useLocation();
  const draft = useNewDraftMutation(space.id);
  const starting = useTask({
    // Where the person acted is a tree row or a small button: nowhere to write a sentence.
    failure: (err) =>
      err instanceof ApiError
        ? `The page was not created: ${err.message}`
        : "The page was not created. Check your connection and try again.",
    toastFailure: true,
  });
  const busy = starting.busy;
  const start = async (parentPageId?: string) => {
    if (busy) return;
    await starting.run({
      what: "start",
      work: async () => {
        const templates = await queryClient.fetchQuery({
          queryKey: keys.templates(space.id),
          queryFn: () => data(api.GET("/api/templates", { params: { query: { spaceId: space.id } } })),
          staleTime: 30_000,
        });
        if (templates.length) return navigate(`/s/${space.key}/new${parentPageId ? `?parent=${encodeURIComponent(parentPageId)}` : ""}`);
        const page = await draft.mutateAsync({ parentPageId });
        navigate(`${pagePath(space.key, page.id)}/edit`);
      },
    });
  };
  return { start, busy };
}
