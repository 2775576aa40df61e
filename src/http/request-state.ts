import type { Caller } from "../identity/caller";

/** What the pipeline learns about a request, for the handlers and the request log. */
export interface RequestState {
  caller: Caller;
}

const states = new WeakMap<Request, RequestState>();

export function setState(request: Request, state: RequestState): void {
  states.set(request, state);
}

export function stateOf(request: Request): RequestState | undefined {
  return states.get(request);
}

/** The caller that the pipeline resolved for this request. */
export function callerOf(request: Request): Caller {
  const state = states.get(request);
  if (!state) throw new Error("request did not pass through the pipeline");
  return state.caller;
}
