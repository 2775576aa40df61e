import { Elysia, t } from "elysia";
import { requireUser } from "../identity/caller";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { Id, NoContent, noContent, problems } from "../http/schemas";
import { DirectoryEntry } from "../users/schemas";
import {
  addMember,
  createGroup,
  deleteGroup,
  GROUP_DESCRIPTION_MAX,
  GROUP_NAME_MAX,
  listGroups,
  listMembers,
  removeMember,
  updateGroup,
} from "./service";

const Group = t.Object(
  { id: t.String(), name: t.String(), description: t.String(), builtIn: t.Boolean(), memberCount: t.Integer() },
  { title: "Group" },
);
const GroupInput = t.Object({
  name: t.String({ maxLength: GROUP_NAME_MAX }),
  description: t.Optional(t.String({ maxLength: GROUP_DESCRIPTION_MAX })),
});
const detail = (summary: string) => ({ tags: ["Groups"], summary });
const user = (request: Request) => requireUser(callerOf(request));

export function groupRoutes(core: Core) {
  return new Elysia({ prefix: "/api/groups" })
    .get("/", ({ request }) => (user(request), listGroups(core)), {
      response: { 200: t.Array(Group), ...problems(401) },
      detail: detail("Every group, with its number of members"),
    })
    .post(
      "/",
      ({ body, request, set }) => {
        const created = createGroup(core, user(request), body);
        set.status = 201;
        return created;
      },
      {
        body: GroupInput,
        response: { 201: Group, ...problems(400, 401, 403, 409) },
        detail: detail("Create a group (right groups.manage)"),
      },
    )
    .put("/:id", ({ params, body, request }) => updateGroup(core, user(request), params.id, body), {
      params: t.Object({ id: Id }),
      body: t.Partial(GroupInput),
      response: { 200: Group, ...problems(400, 401, 403, 404, 409) },
      detail: detail("Rename a group or change its description"),
    })
    .delete(
      "/:id",
      ({ params, request }) => {
        deleteGroup(core, user(request), params.id);
        return noContent();
      },
      { params: t.Object({ id: Id }), response: { 204: NoContent, ...problems(401, 403, 404) }, detail: detail("Delete a custom group") },
    )
    .get("/:id/members", ({ params, request }) => (user(request), listMembers(core, params.id)), {
      params: t.Object({ id: Id }),
      response: { 200: t.Array(DirectoryEntry), ...problems(401, 404) },
      detail: detail("The members of a group"),
    })
    .post(
      "/:id/members",
      ({ params, body, request }) => {
        addMember(core, user(request), params.id, body.userId);
        return noContent();
      },
      {
        params: t.Object({ id: Id }),
        body: t.Object({ userId: Id }),
        response: { 204: NoContent, ...problems(400, 401, 403, 404) },
        detail: detail("Add an account to a custom group (adding a member twice is harmless)"),
      },
    )
    .delete(
      "/:id/members/:userId",
      ({ params, request }) => {
        removeMember(core, user(request), params.id, params.userId);
        return noContent();
      },
      {
        params: t.Object({ id: Id, userId: Id }),
        response: { 204: NoContent, ...problems(401, 403, 404) },
        detail: detail("Remove an account from a custom group"),
      },
    );
}
