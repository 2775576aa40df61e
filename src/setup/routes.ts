import { Elysia } from "elysia";
import type { Core } from "../core";
import { callerOf } from "../http/request-state";
import { problems } from "../http/schemas";
import { SetupState, StepBody, StepParams } from "./schemas";
import { completeSetup, readSetup, recordStep } from "./service";

const tags = ["Setup"];
const ownerOnly = "Only the owner (others: 403 permission_required; anonymous: 401).";

/** /api/setup: the first-run wizard's progress (the owner only). */
export function setupRoutes(core: Core) {
  return new Elysia({ prefix: "/api/setup" })
    .get("/", ({ request }) => readSetup(core, callerOf(request)), {
      response: { 200: SetupState, ...problems(401, 403) },
      detail: {
        tags,
        summary: "The first-run wizard: its steps in order, each with its state and the evidence the server sees",
        description: ownerOnly,
      },
    })
    .post("/steps/:key", ({ params, body, request }) => recordStep(core, callerOf(request), params.key, body.skipped), {
      params: StepParams,
      body: StepBody,
      response: { 200: SetupState, ...problems(400, 401, 403, 404, 409) },
      detail: {
        tags,
        summary: "Mark a wizard step done or skipped",
        description:
          `${ownerOnly} The step only records progress: its choices are made through the APIs that own them (PUT ` +
          `/api/admin/settings, POST /api/spaces, POST /api/admin/invites). Done checks the step's evidence (409 \`conflict\` naming ` +
          `what is missing, with \`step\`); skipping welcome, account or done is 400; an unknown step 404; after completion every ` +
          `change is 409.`,
      },
    })
    .post("/complete", ({ request }) => completeSetup(core, callerOf(request)), {
      response: { 200: SetupState, ...problems(401, 403, 409) },
      detail: {
        tags,
        summary: "Complete the wizard",
        description:
          `${ownerOnly} Checks the evidence of every step not skipped, in order; the first without answers 409 \`conflict\` naming ` +
          `it (\`step\`). Otherwise records the completion (audit: setup.completed). A second call is 409.`,
      },
    });
}
